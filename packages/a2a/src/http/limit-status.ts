import type { RequestHandler } from 'express';
import { TOO_MANY_REQUESTS_REASON } from '../limits/limit-errors.ts';

/** The `retryAfterMs` of a `TOO_MANY_REQUESTS` ErrorInfo among an error's details, if there is one. */
function retryAfterOf(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    if (detail?.reason !== TOO_MANY_REQUESTS_REASON) continue;
    const ms = Number(detail.metadata?.retryAfterMs);
    return Number.isFinite(ms) && ms >= 0 ? ms : 0;
  }
  return undefined;
}

/**
 * Answers a request refused by a rate or concurrency limit (`TooManyRequestsError`) with HTTP 429 and
 * `Retry-After` (whole seconds), for JSON-RPC and REST alike: the SDK's handlers write the error body
 * (its `ErrorInfo` in `error.data` or `error.details`) with their own status, and this sets the status
 * and header as that body is sent. The body keeps its shape; a REST body's `code` and `status` follow
 * the 429. Streams already under way are left as they are.
 */
export function limitStatus(): RequestHandler {
  return (_req, res, next) => {
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      const error = (body as { error?: { data?: unknown; details?: unknown; code?: unknown } } | null)?.error;
      const retryAfterMs = error ? retryAfterOf(error.data ?? error.details) : undefined;
      if (error && retryAfterMs !== undefined && !res.headersSent) {
        res.status(429).set('Retry-After', String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
        if (Array.isArray(error.details)) Object.assign(error, { code: 429, status: 'RESOURCE_EXHAUSTED' });
      }
      return json(body);
    };
    next();
  };
}
