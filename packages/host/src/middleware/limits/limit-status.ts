import type { RequestHandler } from 'express';
import { JSON_RPC_SERVER_ERROR, TOO_MANY_REQUESTS_REASON } from './limit-errors.ts';

export { JSON_RPC_SERVER_ERROR };

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
 * the 429, a JSON-RPC body's code is -32000 (a server error) rather than the SDK's -32603, as is the
 * v0.3 REST body (the JSON-RPC error object itself). Streams already under way are left as they are.
 */
export function limitStatus(): RequestHandler {
  return (_req, res, next) => {
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      type ErrorBody = { data?: unknown; details?: unknown; code?: unknown };
      // The v0.3 REST binding writes the JSON-RPC error object as the whole body.
      const error =
        (body as { error?: ErrorBody } | null)?.error ??
        (Array.isArray((body as ErrorBody | null)?.data) ? (body as ErrorBody) : undefined);
      const retryAfterMs = error ? retryAfterOf(error.data ?? error.details) : undefined;
      if (error && retryAfterMs !== undefined && !res.headersSent) {
        res.status(429).set('Retry-After', String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
        if (Array.isArray(error.details)) Object.assign(error, { code: 429, status: 'RESOURCE_EXHAUSTED' });
        // JSON-RPC: A2A assigns no code to back-pressure, and the SDK maps an error it does not
        // know to -32603 (internal error: "our fault, do not retry"). -32000 is JSON-RPC's generic
        // server error; the ErrorInfo reason TOO_MANY_REQUESTS beside it says what it is.
        else Object.assign(error, { code: JSON_RPC_SERVER_ERROR });
      }
      return json(body);
    };
    next();
  };
}
