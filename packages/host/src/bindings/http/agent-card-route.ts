import { createHash } from 'node:crypto';
import { A2A_VERSION_HEADER, type AgentCard } from '@a2a-js/sdk';
import { toRestErrorBody, VersionNotSupportedError } from '@a2a-js/sdk/errors';
import { type CardShape, renderAgentCard } from '@switchboard/cards';
import type { Request, RequestHandler } from 'express';
import { HostError } from '../../errors.ts';

/** How long clients and proxies may cache the card, in seconds (A2A v1.0 §8.6 asks for max-age and an ETag). */
export const AGENT_CARD_MAX_AGE = 60;

/**
 * The card shape a request without `A2A-Version` gets: `hybrid` (the v1.0 card with the v0.3
 * fields added, read by v1.0 clients that send no header and by v0.3 peers alike; a strict v1.0
 * schema check refuses its extra fields), the pure `1.0` card, or the pure `0.3` one.
 */
export const UNVERSIONED_CARD_SHAPES = ['hybrid', '1.0', '0.3'] as const satisfies readonly CardShape[];

/** See {@link UNVERSIONED_CARD_SHAPES}. */
export type UnversionedCardShape = (typeof UNVERSIONED_CARD_SHAPES)[number];

/** Options of {@link agentCardRoute}. */
export interface AgentCardRouteOptions {
  /** The canonical v1.0 card, signed or not; rendered once, when the route is created. */
  card: AgentCard;
  /**
   * Serve the v0.3 card to v0.3 readers: requests with `A2A-Version: 0.3`, and the v0.3 fields of
   * the hybrid card (default true). When false, a request without the header gets the v1.0 card
   * and `0.3` gets 400.
   */
  legacyCompat?: boolean;
  /**
   * What a request without `A2A-Version` gets (default `hybrid`); see {@link UNVERSIONED_CARD_SHAPES}.
   * Without `legacyCompat`, or when the card has no interface a v0.3 client could use, it is the
   * v1.0 card whatever this says.
   */
  unversioned?: UnversionedCardShape;
}

interface Shape {
  body: string;
  etag: string;
}

/**
 * Whether an `If-None-Match` header matches the ETag (weak comparison, RFC 9110 §13.1.2). Checked
 * here rather than with `req.fresh`, which ignores it when the request says `Cache-Control: no-cache`,
 * as `fetch` does whenever the caller sets `If-None-Match` itself.
 */
function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

function shape(json: unknown): Shape {
  const body = JSON.stringify(json);
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/** The requested version: the `A2A-Version` header, else the `A2A-Version` query parameter (spec §3.2.6). */
function requestedVersion(req: Request): string {
  const header = req.header(A2A_VERSION_HEADER)?.trim();
  if (header) return header;
  const query = req.query[A2A_VERSION_HEADER];
  return typeof query === 'string' ? query.trim() : '';
}

/** `1.0`, `1.0.2` → `1.0` (a patch must not affect negotiation, spec §3.6); anything else → undefined. */
function majorMinor(version: string): string | undefined {
  const match = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(version);
  return match ? `${Number(match[1])}.${Number(match[2])}` : undefined;
}

/**
 * Serves `/.well-known/agent-card.json` by the `A2A-Version` the reader asks for (header, or query
 * parameter): `1.0` gets the v1.0 card as ProtoJSON (`AgentCard.toJSON`); `0.3` gets the v0.3 card
 * (`toV03` of `@switchboard/cards`); no version (or an empty one) gets the `unversioned` shape, by
 * default the hybrid card, which v1.0 clients that send no header (the A2A conformance kit) and
 * v0.3 peers (for which an absent version means 0.3) both read; any other gets 400
 * `VERSION_NOT_SUPPORTED` (a `google.rpc.Status` body) naming the versions served. Each shape has
 * its own ETag (a matching `If-None-Match` gets 304) and says when the card was made
 * (`Last-Modified`, spec §8.6; the ETag stays the validator); every answer says `Vary: A2A-Version`. Not the
 * SDK's `agentCardHandler`: that one serves `JSON.stringify(card)`, which mangles `securitySchemes`
 * (a2a-versions.md §5.1), and a v0.3-first hybrid.
 */
export function agentCardRoute({
  card,
  legacyCompat = true,
  unversioned = 'hybrid',
}: AgentCardRouteOptions): RequestHandler {
  if (!(UNVERSIONED_CARD_SHAPES as readonly string[]).includes(unversioned)) {
    throw new HostError('INVALID_OPTIONS', {
      message: `agentCardRoute: unversioned must be one of ${UNVERSIONED_CARD_SHAPES.join(', ')}, not ${JSON.stringify(unversioned)}.`,
    });
  }
  const shapes = new Map<string, Shape>([['1.0', shape(renderAgentCard({ card, version: '1.0' }).card)]]);
  if (legacyCompat) {
    try {
      shapes.set('0.3', shape(renderAgentCard({ card, version: '0.3' }).card));
      shapes.set('hybrid', shape(renderAgentCard({ card, version: 'hybrid' }).card));
    } catch {
      // No interface a v0.3 client could use: v0.3 readers are told so, per request.
    }
  }
  // The card is made once, here: this is when it last changed, as far as this process serves it.
  const lastModified = new Date().toUTCString();
  const noneGets: CardShape = shapes.has(unversioned) ? unversioned : '1.0';
  const unversionedShape = shapes.get(noneGets);
  const supported = [...shapes.keys()].filter((key) => key !== 'hybrid');
  return (req, res) => {
    res.vary(A2A_VERSION_HEADER);
    const requested = requestedVersion(req);
    // Only digits come out of majorMinor, so no header value names the hybrid shape.
    const served = requested === '' ? unversionedShape : shapes.get(majorMinor(requested) ?? '');
    if (!served) {
      const error = new VersionNotSupportedError({
        message: `A2A-Version "${requested}" is not supported for the agent card. Supported versions: ${supported.join(', ')}. Send the ${A2A_VERSION_HEADER} header (or query parameter) with one of them, or none for the ${noneGets} card.`,
        metadata: { supportedVersions: supported.join(',') },
      });
      res.setHeader('Cache-Control', 'no-store');
      res
        .status(400)
        .type('application/json')
        .send(JSON.stringify(toRestErrorBody(error, 400)));
      return;
    }
    res.setHeader('Cache-Control', `public, max-age=${AGENT_CARD_MAX_AGE}`);
    res.setHeader('ETag', served.etag);
    res.setHeader('Last-Modified', lastModified);
    if (matchesEtag(req.header('if-none-match'), served.etag)) {
      res.status(304).end();
      return;
    }
    res.type('application/json').send(served.body);
  };
}
