import type { Response } from 'express';

/** The A2A HTTP bindings the app serves; an error is shaped for the binding that was called. */
export type HttpBinding = 'jsonrpc' | 'rest';

/**
 * Problems the HTTP layer answers itself, before a request reaches the SDK, with their HTTP status,
 * JSON-RPC code and `google.rpc.Status` name. JSON-RPC parse errors keep HTTP 200, as the SDK's own
 * handler answers them.
 */
export const HTTP_PROBLEMS = {
  UNAUTHENTICATED: { httpStatus: 401, jsonRpcHttpStatus: 401, jsonRpcCode: -32600, rest: 'UNAUTHENTICATED' },
  BODY_TOO_LARGE: { httpStatus: 413, jsonRpcHttpStatus: 413, jsonRpcCode: -32600, rest: 'INVALID_ARGUMENT' },
  INVALID_JSON: { httpStatus: 400, jsonRpcHttpStatus: 200, jsonRpcCode: -32700, rest: 'INVALID_ARGUMENT' },
  UNREADABLE_BODY: { httpStatus: 400, jsonRpcHttpStatus: 400, jsonRpcCode: -32600, rest: 'INVALID_ARGUMENT' },
  UNSUPPORTED_MEDIA_TYPE: {
    httpStatus: 415,
    jsonRpcHttpStatus: 415,
    jsonRpcCode: -32600,
    rest: 'INVALID_ARGUMENT',
  },
  INTERNAL: { httpStatus: 500, jsonRpcHttpStatus: 500, jsonRpcCode: -32603, rest: 'INTERNAL' },
} as const;

/** A key of {@link HTTP_PROBLEMS}. */
export type HttpProblem = keyof typeof HTTP_PROBLEMS;

const A2A_JSON = 'application/a2a+json';

/**
 * Answers a request with an error in its binding's shape: a JSON-RPC error response with `id: null`
 * for JSON-RPC, a `google.rpc.Status` body (as the SDK's REST handler writes them) for REST.
 */
export function sendProblem({
  res,
  binding,
  problem,
  message,
  httpStatus,
}: {
  res: Response;
  binding: HttpBinding;
  problem: HttpProblem;
  /** What the caller reads: what was wrong and what to do. */
  message: string;
  /** Overrides the table's status (e.g. 415 for an unsupported body encoding). */
  httpStatus?: number;
}): void {
  const entry = HTTP_PROBLEMS[problem];
  if (binding === 'jsonrpc') {
    res
      .status(httpStatus ?? entry.jsonRpcHttpStatus)
      .json({ jsonrpc: '2.0', id: null, error: { code: entry.jsonRpcCode, message } });
    return;
  }
  const status = httpStatus ?? entry.httpStatus;
  res
    .status(status)
    .type(A2A_JSON)
    .json({ error: { code: status, status: entry.rest, message, details: [] } });
}
