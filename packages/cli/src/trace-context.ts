import { randomBytes } from 'node:crypto';
import { context, propagation } from '@opentelemetry/api';

/** One W3C trace for the requests of one command. */
export interface TraceContext {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** The W3C `traceparent` header value, sampled: `00-<traceId>-<spanId>-01`. */
  traceparent: string;
}

/**
 * The trace of the command's requests. When the command exports its own spans
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`), the trace of its root span, whose `traceparent` is the fallback
 * of its requests; else a new trace whose parent span nobody exports, the same for every request,
 * so that the services' spans of one command still share a trace.
 */
export function newTrace(): TraceContext {
  const active = activeTraceparent();
  const traceId = active?.split('-')[1];
  if (active && traceId) return { traceId, traceparent: active };
  const fresh = randomBytes(16).toString('hex');
  return { traceId: fresh, traceparent: `00-${fresh}-${randomBytes(8).toString('hex')}-01` };
}

/**
 * The `traceparent` of the span active now (the command's, or the CLIENT span of an A2A call) when
 * the command records spans; undefined when no OpenTelemetry SDK runs.
 */
export function activeTraceparent(): string | undefined {
  const carrier: { traceparent?: string } = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

// The link to a trace in Jaeger's UI is the trace reader's (one owner); the commands import it from here.
export { jaegerTraceUrl } from '@switchboard/telemetry';
