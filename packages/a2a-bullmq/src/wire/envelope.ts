/**
 * What one BullMQ job carries (version 1 of the envelope): a JSON-RPC 2.0 request of the A2A v1.0
 * JSON-RPC binding, the A2A service parameters that HTTP would carry as headers (`a2a-version`,
 * `a2a-extensions`, `authorization`; lower-case names), where to send the reply, and a slot for
 * trace context (`traceparent`, `tracestate`, `baggage`).
 */
export interface JobEnvelope {
  v: 1;
  /** Correlates reply frames with the waiting caller. Unique per call; 1 to 200 characters. */
  requestId: string;
  /** The reply stream key of the caller's inbox; 1 to 500 characters. */
  replyTo: string;
  serviceParameters: Record<string, string>;
  trace?: Record<string, string>;
  /** The JSON-RPC request, as text: validated by the SDK's JSON-RPC handler, like an HTTP body. */
  request: string;
}

/**
 * The largest JSON-RPC request a job carries by default (256 KiB), on both sides: the caller refuses
 * to send more and the worker to run more. As the HTTP binding's default body limit.
 */
export const DEFAULT_MAX_REQUEST_BYTES = 256 * 1024;

/** A job's data read as an envelope, or what is wrong with it (`<field>: <problem>` each). */
export type ReadEnvelope = { ok: true; envelope: JobEnvelope } | { ok: false; problems: string[] };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isStringMap = (value: unknown): value is Record<string, string> =>
  isRecord(value) && Object.values(value).every((entry) => typeof entry === 'string');

const isText = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value.length >= 1 && value.length <= max;

/** Validates a job's data at the queue boundary; the worker trusts the envelope after this. */
export function readEnvelope(data: unknown): ReadEnvelope {
  if (!isRecord(data)) return { ok: false, problems: ['job: must be an object'] };
  const problems: string[] = [];
  if (data.v !== 1) problems.push('v: must be 1');
  if (!isText(data.requestId, 200)) problems.push('requestId: must be a string of 1 to 200 characters');
  if (!isText(data.replyTo, 500)) problems.push('replyTo: must be a string of 1 to 500 characters');
  if (!isStringMap(data.serviceParameters)) {
    problems.push('serviceParameters: must be an object of strings');
  }
  if (data.trace !== undefined && !isStringMap(data.trace)) {
    problems.push('trace: must be an object of strings when present');
  }
  if (typeof data.request !== 'string') problems.push('request: must be a string');
  if (problems.length > 0) return { ok: false, problems };
  const { requestId, replyTo, serviceParameters, trace, request } = data as unknown as JobEnvelope;
  return {
    ok: true,
    envelope: { v: 1, requestId, replyTo, serviceParameters, request, ...(trace ? { trace } : {}) },
  };
}
