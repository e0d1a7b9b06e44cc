import type { AgentEvent } from './events.ts';
import { type AgentRunResult, type RunAgentOptions, runAgent } from './run-agent.ts';

/** A run whose progress can be read as an async iterable while it goes on. */
export interface AgentStream {
  /** Every event of the run, in order; ends after `run-finished` (or when the run throws). */
  events: AsyncIterable<AgentEvent>;
  /** The result, as {@link runAgent} returns it. */
  result: Promise<AgentRunResult>;
}

/**
 * Starts {@link runAgent} and exposes its events as an async iterable.
 *
 * @example
 * const { events, result } = streamAgent({ agent, model, input });
 * for await (const event of events) if (event.type === 'text-delta') process.stdout.write(event.delta);
 * console.log((await result).stopReason);
 */
export function streamAgent(options: Omit<RunAgentOptions, 'onEvent'>): AgentStream {
  const buffer: AgentEvent[] = [];
  let done = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  const result = runAgent({
    ...options,
    onEvent: (event) => {
      buffer.push(event);
      notify();
    },
  }).finally(() => {
    done = true;
    notify();
  });
  result.catch(() => {});
  async function* events(): AsyncIterable<AgentEvent> {
    while (true) {
      const next = buffer.shift();
      if (next) {
        yield next;
        continue;
      }
      if (done) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  }
  return { events: events(), result };
}
