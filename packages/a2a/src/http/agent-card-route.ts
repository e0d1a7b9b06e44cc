import { createHash } from 'node:crypto';
import { A2A_VERSION_HEADER, type AgentCard } from '@a2a-js/sdk';
import { toRestErrorBody, VersionNotSupportedError } from '@a2a-js/sdk/errors';
import { type PublishedCardVersion, renderAgentCard } from '@switchboard/cards';
import type { Request, RequestHandler } from 'express';

/** How long clients and proxies may cache the card, in seconds (A2A v1.0 §8.6 asks for max-age and an ETag). */
export const AGENT_CARD_MAX_AGE = 60;

/** Options of {@link agentCardRoute}. */
export interface AgentCardRouteOptions {
  /** The canonical v1.0 card; rendered once, when the route is created. */
  card: AgentCard;
  /**
   * Serve the v0.3 card to v0.3 readers: requests without `A2A-Version`, or with `0.3` (default
   * true). When false, a request without the header gets the v1.0 card and `0.3` gets 400.
   */
  legacyCompat?: boolean;
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
 * parameter): `1.0` gets the v1.0 card as ProtoJSON (`AgentCard.toJSON`); no version, an empty one
 * or `0.3` gets the v0.3 card (`toV03` of `@switchboard/cards`), since the spec reads an absent version as 0.3; any
 * other gets 400 `VERSION_NOT_SUPPORTED` (a `google.rpc.Status` body) naming the versions served.
 * Each shape has its own ETag (a matching `If-None-Match` gets 304); every answer says
 * `Vary: A2A-Version`. Not the SDK's `agentCardHandler`: that one serves `JSON.stringify(card)`,
 * which mangles `securitySchemes` (a2a-versions.md §5.1), and a hybrid card for v0.3 readers.
 */
export function agentCardRoute({ card, legacyCompat = true }: AgentCardRouteOptions): RequestHandler {
  const shapes = new Map<string, Shape>([['1.0', shape(renderAgentCard({ card, version: '1.0' }).card)]]);
  if (legacyCompat) {
    try {
      shapes.set('0.3', shape(renderAgentCard({ card, version: '0.3' }).card));
    } catch {
      // No interface a v0.3 client could use: v0.3 readers are told so, per request.
    }
  }
  const unversioned: PublishedCardVersion = shapes.has('0.3') ? '0.3' : '1.0';
  const supported = [...shapes.keys()];
  return (req, res) => {
    res.vary(A2A_VERSION_HEADER);
    const requested = requestedVersion(req);
    const served = requested === '' ? shapes.get(unversioned) : shapes.get(majorMinor(requested) ?? '');
    if (!served) {
      const error = new VersionNotSupportedError({
        message: `A2A-Version "${requested}" is not supported for the agent card. Supported versions: ${supported.join(', ')}. Send the ${A2A_VERSION_HEADER} header (or query parameter) with one of them${shapes.has('0.3') ? ', or none for 0.3' : ''}.`,
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
    if (matchesEtag(req.header('if-none-match'), served.etag)) {
      res.status(304).end();
      return;
    }
    res.type('application/json').send(served.body);
  };
}
