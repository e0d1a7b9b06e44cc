import {
  addFigures,
  type CostFigures,
  costOf,
  emptyFigures,
  MAX_COST_MS,
  mergeCosts,
  type RequestCost,
} from '../observe/request-cost.ts';
import type { AgentEvent } from './events.ts';

/** Options of {@link CostMeter}. */
export interface CostMeterOptions {
  /** The agent whose run is metered: its entry in the request's cost. */
  agent: string;
  /** How long the request waited on a queue before this run began (default 0: it did not queue). */
  queueWaitMs?: number;
}

const whole = (ms: number) => Math.min(Math.max(0, Math.round(Number.isFinite(ms) ? ms : 0)), MAX_COST_MS);

/**
 * Sums what one run of an agent cost, from the run's events (`onEvent` of `runAgent`): tokens in and
 * out and the time of each model step (`step-finished`), the time of each tool call
 * (`tool-call-finished`), and the cost its tools report for work they handed on (`tool-cost`, a
 * delegate's subtree). The run is one hop of its agent; the queue wait is the wait of that hop.
 *
 * @example
 * const meter = new CostMeter({ agent: agent.name, queueWaitMs: 12 });
 * const result = await runAgent({ agent, model, input, onEvent: (event) => meter.observe(event) });
 * meter.cost; // { agents: [{ agent: 'orders', tokensIn: 310, ... }, ...], total: { ... } }
 */
export class CostMeter {
  readonly #agent: string;
  #own: CostFigures;
  #handedOn: RequestCost = costOf([]);

  constructor({ agent, queueWaitMs = 0 }: CostMeterOptions) {
    this.#agent = agent;
    this.#own = { ...emptyFigures(), queueWaitMs: whole(queueWaitMs), hops: 1 };
  }

  /** Counts one event of the run; events that cost nothing are ignored. */
  observe(event: AgentEvent): void {
    switch (event.type) {
      case 'step-finished': {
        const { usage, durationMs } = event.record;
        this.#add({
          tokensIn: usage.promptTokens,
          tokensOut: usage.completionTokens,
          modelMs: whole(durationMs),
        });
        return;
      }
      case 'tool-call-finished':
        this.#add({ toolMs: whole(event.record.durationMs) });
        return;
      case 'tool-cost':
        this.#handedOn = mergeCosts(this.#handedOn, event.cost);
        return;
      default:
        return;
    }
  }

  /** The run's own entry first, then what its tools handed on, by agent; the total is their sum. */
  get cost(): RequestCost {
    return mergeCosts(costOf([{ agent: this.#agent, ...this.#own }]), this.#handedOn);
  }

  #add(figures: Partial<CostFigures>): void {
    this.#own = addFigures(this.#own, { ...emptyFigures(), ...figures });
  }
}
