/**
 * One frame on a reply stream: `item` carries one JSON-RPC response of a stream, `end` closes the
 * call (with the JSON-RPC response of a unary call, or the error that ended a stream, or nothing).
 */
export interface ReplyFrame {
  requestId: string;
  kind: 'item' | 'end';
  /** A JSON-RPC response as text, when the frame has one. */
  body?: string;
}

/** Flattens a frame into Redis stream fields. */
export function encodeFrame(frame: ReplyFrame): string[] {
  return ['rid', frame.requestId, 'k', frame.kind, ...(frame.body === undefined ? [] : ['b', frame.body])];
}

/** Reads a frame from Redis stream fields; undefined when they are not one. */
export function decodeFrame(fields: readonly string[]): ReplyFrame | undefined {
  const map = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) map.set(fields[i] ?? '', fields[i + 1] ?? '');
  const requestId = map.get('rid');
  const kind = map.get('k');
  if (!requestId || (kind !== 'item' && kind !== 'end')) return undefined;
  const body = map.get('b');
  return body === undefined ? { requestId, kind } : { requestId, kind, body };
}
