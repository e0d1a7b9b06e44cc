import { z } from 'zod';

/**
 * What one BullMQ job carries: a JSON-RPC 2.0 request of the A2A v1.0 JSON-RPC binding, the A2A
 * service parameters that HTTP would carry as headers (`a2a-version`, `a2a-extensions`,
 * `authorization`; lower-case names), where to send the reply, and a slot for trace context
 * (`traceparent`, `tracestate`, `baggage`). Version 1 of the envelope.
 */
export const JobEnvelope = z.object({
  v: z.literal(1),
  /** Correlates reply frames with the waiting caller. Unique per call. */
  requestId: z.string().min(1).max(200),
  /** The reply stream key of the caller's inbox. */
  replyTo: z.string().min(1).max(500),
  serviceParameters: z.record(z.string(), z.string()),
  trace: z.record(z.string(), z.string()).optional(),
  /** The JSON-RPC request, as text: validated by the SDK's JSON-RPC handler, like an HTTP body. */
  request: z.string(),
});
export type JobEnvelope = z.infer<typeof JobEnvelope>;

/**
 * One frame on a reply stream: `item` carries one JSON-RPC response of a stream, `end` closes the
 * call (with the JSON-RPC response of a unary call, or nothing after a stream).
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
