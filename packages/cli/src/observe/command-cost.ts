import type { StreamResponse } from '@a2a-js/sdk';
import { trace } from '@opentelemetry/api';
import { costAttributesOf } from '@switchboard/delegate/observe';

/**
 * Records the cost a request's task reports (`COST_KEY`: its whole agent tree) on the command's root
 * span too, the span active when this is called, so the trace's root holds the request's totals as
 * the supervisor's SERVER span does. Without tracing there is no span, and nothing is recorded.
 */
export function recordCommandCost(result: unknown): void {
  trace.getActiveSpan()?.setAttributes(costAttributesOf(result));
}

/** Passes a request's stream on, recording its cost on the command's root span as it arrives. */
export function withCommandCost(events: AsyncIterable<StreamResponse>): AsyncIterable<StreamResponse> {
  const span = trace.getActiveSpan();
  if (!span) return events;
  return (async function* () {
    for await (const event of events) {
      span.setAttributes(costAttributesOf(event));
      yield event;
    }
  })();
}
