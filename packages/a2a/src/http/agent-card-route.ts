import { createHash } from 'node:crypto';
import { AgentCard } from '@a2a-js/sdk';
import type { RequestHandler } from 'express';

/** How long clients and proxies may cache the card, in seconds (A2A v1.0 §8.6 asks for max-age and an ETag). */
export const AGENT_CARD_MAX_AGE = 60;

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

/**
 * Serves the v1.0 card as ProtoJSON (`AgentCard.toJSON`), with `Cache-Control` and an ETag; a
 * matching `If-None-Match` gets 304. Not the SDK's `agentCardHandler`: that one serves
 * `JSON.stringify(card)`, which mangles `securitySchemes` (a2a-versions.md §5.1).
 */
export function agentCardRoute({ card }: { card: AgentCard }): RequestHandler {
  const body = JSON.stringify(AgentCard.toJSON(card));
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return (req, res) => {
    res.setHeader('Cache-Control', `public, max-age=${AGENT_CARD_MAX_AGE}`);
    res.setHeader('ETag', etag);
    if (matchesEtag(req.header('if-none-match'), etag)) {
      res.status(304).end();
      return;
    }
    res.type('application/json').send(body);
  };
}
