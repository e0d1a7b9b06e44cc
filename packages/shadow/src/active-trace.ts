import { isSpanContextValid, trace } from '@opentelemetry/api';

/** The id of the trace of the span active now, when one is really being recorded or propagated. */
export function activeTraceId(): string | undefined {
  const context = trace.getActiveSpan()?.spanContext();
  return context && isSpanContextValid(context) ? context.traceId : undefined;
}
