import { checkParamIds, type IdLimits } from './request-ids.ts';

/** No bound but the type and the characters: what the request's own limits then bound by size. */
const TYPES_ONLY: Required<IdLimits> = {
  maxIdBytes: Number.POSITIVE_INFINITY,
  maxListedIds: Number.POSITIVE_INFINITY,
  maxExtensions: Number.POSITIVE_INFINITY,
  maxExtensionUriBytes: Number.POSITIVE_INFINITY,
};

/** JSON-RPC methods, of A2A v1.0 and v0.3, whose params carry a message. */
const MESSAGE_METHODS = new Set(['SendMessage', 'SendStreamingMessage', 'message/send', 'message/stream']);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Refuses a JSON-RPC request whose ids are not text as it arrived, before the SDK reads it: the SDK's
 * v1.0 reader turns any value into a string (`{"contextId": {"a": 1}}` becomes `"[object Object]"`),
 * so what was sent is only seen here. Throws the A2A invalid-params error of `checkRequestIds`;
 * a request that is not a JSON-RPC call is left to the SDK to refuse.
 *
 * @example
 * checkWireIds({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: { a: 1 } } }); // throws
 */
export function checkWireIds(request: unknown): void {
  if (!isRecord(request) || typeof request.method !== 'string') return;
  checkParamIds(request.params, {
    message: MESSAGE_METHODS.has(request.method),
    limits: TYPES_ONLY,
    wire: true,
  });
}

/**
 * The same check of a REST body (HTTP+JSON binding): the params of a call, a message's when the
 * route sends one (`message:send`, `message:stream`).
 */
export function checkRestBodyIds(body: unknown, { message }: { message: boolean }): void {
  if (isRecord(body)) checkParamIds(body, { message, limits: TYPES_ONLY, wire: true });
}
