import type { StreamResponse } from '@a2a-js/sdk';
import { type Context, context, type Span } from '@opentelemetry/api';
import type { A2aMethod } from '@switchboard/semconv';
import { recordCallFailure, streamEventAttributes } from './a2a-span-attributes.ts';
import { costAttributesOf } from './cost-attributes.ts';

/** Options of {@link tracedStream}. */
export interface TracedStreamOptions {
  /** The call's span, ended when the stream ends, fails or its reader stops. */
  span: Span;
  /** The context with `span` active, in which every step of the stream runs. */
  active: Context;
  method: A2aMethod;
  /** Opens the stream; called in `active`. */
  open: () => AsyncGenerator<StreamResponse, void, undefined>;
}

/**
 * A streaming A2A call under one span: each event's task state and ids land on the span (and, for
 * `SendStreamingMessage`, the cost its final event carries), a failure marks it, and a reader that
 * stops early closes the inner stream too.
 */
export async function* tracedStream({
  span,
  active,
  method,
  open,
}: TracedStreamOptions): AsyncGenerator<StreamResponse, void, undefined> {
  // The work starts in the first step (the request goes out, the executor starts): each runs in `active`.
  const inner = context.with(active, open);
  let finished = false;
  try {
    while (true) {
      let step: IteratorResult<StreamResponse, void>;
      try {
        step = await context.with(active, () => inner.next());
      } catch (error) {
        finished = true;
        throw error;
      }
      if (step.done) {
        finished = true;
        return;
      }
      span.setAttributes(streamEventAttributes(step.value));
      // A new message's stream ends with what its run cost (a resubscription's would repeat an old one).
      if (method === 'SendStreamingMessage') span.setAttributes(costAttributesOf(step.value));
      yield step.value;
    }
  } catch (error) {
    recordCallFailure(span, method, error);
    throw error;
  } finally {
    try {
      if (!finished) await context.with(active, () => inner.return(undefined));
    } finally {
      span.end();
    }
  }
}
