import { randomBytes } from 'node:crypto';

/** One W3C trace for the requests of one command. */
export interface TraceContext {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** The W3C `traceparent` header value, sampled: `00-<traceId>-<spanId>-01`. */
  traceparent: string;
}

/** Starts a new trace: every request of the command sends its `traceparent`. */
export function newTrace(): TraceContext {
  const traceId = randomBytes(16).toString('hex');
  return { traceId, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` };
}

/** The link to a trace in Jaeger's UI. */
export const jaegerTraceUrl = ({ jaegerUrl, traceId }: { jaegerUrl: string; traceId: string }) =>
  `${jaegerUrl.replace(/\/+$/, '')}/trace/${traceId}`;
