import {
  type AgentCost,
  COST_FIGURES,
  type CostFigures,
  emptyFigures,
  OTHER_AGENTS,
  type RequestCost,
} from '@switchboard/agent';

/** One day's totals in a {@link CostBook}: every request recorded that day, by agent. */
export interface CostDay {
  /** The UTC day, `YYYY-MM-DD`. */
  day: string;
  /** Requests recorded that day. */
  requests: number;
  /** Per agent, summed over the day's requests; in order of name. */
  agents: AgentCost[];
  /** The day's total: the agents' sum. */
  total: CostFigures;
}

/** What a finished run of a request cost, as the executor records it. */
export interface CostEntry {
  taskId: string;
  /** When the run ended; its UTC day is the day it counts in. */
  at: Date;
  cost: RequestCost;
}

/**
 * The cost book: what requests cost per agent per day, for the operators' console. The executor
 * records each root request's run once, when it ends (a request a caller delegated is in its
 * caller's cost already); one request's own cost is read from its task (`COST_KEY`), not from here.
 * Bounded: days expire, and a day names at most {@link MAX_BOOK_AGENTS} agents (the rest are added
 * up as `OTHER_AGENTS` of `@switchboard/agent`, as a request's cost adds up its agents past its limit).
 */
export interface CostBook {
  record(entry: CostEntry): Promise<void>;
  /** The days from `from` to `to` (UTC days, `YYYY-MM-DD`, at most {@link MAX_BOOK_DAYS}), newest first; days with nothing recorded are left out. */
  days(range: { from: string; to: string }): Promise<CostDay[]>;
}

/** Most agents one day of a cost book names. */
export const MAX_BOOK_AGENTS = 200;
/** Most days one read of a cost book spans. */
export const MAX_BOOK_DAYS = 93;

/** The UTC day of a time, `YYYY-MM-DD`. */
export function costDayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The UTC days from `from` to `to`, newest first, at most {@link MAX_BOOK_DAYS}; none when either is not a day. */
export function daysBetween({ from, to }: { from: string; to: string }): string[] {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  if (!Number.isFinite(start) || !Number.isFinite(end) || start > end) return [];
  const days: string[] = [];
  for (let at = end; at >= start && days.length < MAX_BOOK_DAYS; at -= 86_400_000) {
    days.push(costDayOf(new Date(at)));
  }
  return days;
}

/** Two sets of figures added, uncapped (a day adds up many requests). */
export function sumFigures(a: CostFigures, b: CostFigures): CostFigures {
  const sum = { ...a };
  for (const key of COST_FIGURES) sum[key] += b[key];
  return sum;
}

/** A day's totals from its per-agent figures. */
export function costDay(day: string, requests: number, byAgent: ReadonlyMap<string, CostFigures>): CostDay {
  const agents = [...byAgent]
    .map(([agent, figures]) => ({ agent, ...figures }))
    .sort((a, b) => a.agent.localeCompare(b.agent));
  return { day, requests, agents, total: agents.reduce<CostFigures>(sumFigures, emptyFigures()) };
}

/** What a book holds of one day: how many requests, and their figures by agent. */
export interface DayTotals {
  requests: number;
  agents: Map<string, CostFigures>;
}

/**
 * Adds `requests` requests and their figures by agent into `days` (by UTC day): an agent beyond the
 * day's {@link MAX_BOOK_AGENTS} is added up under `(other agents)`.
 */
export function addToDay(
  days: Map<string, DayTotals>,
  day: string,
  requests: number,
  agents: Iterable<readonly [string, CostFigures]>,
): void {
  const book = days.get(day) ?? { requests: 0, agents: new Map<string, CostFigures>() };
  book.requests += requests;
  for (const [agent, figures] of agents) {
    const name = book.agents.has(agent) || book.agents.size < MAX_BOOK_AGENTS ? agent : OTHER_AGENTS;
    book.agents.set(name, sumFigures(book.agents.get(name) ?? emptyFigures(), figures));
  }
  days.set(day, book);
}

/** A cost's figures by agent, as {@link addToDay} takes them. */
export const agentsOf = (cost: CostEntry['cost']) =>
  cost.agents.map(({ agent, ...figures }) => [agent, figures] as const);

/** The cost book in memory: this process only, for tests and a team run in one process. */
export class MemoryCostBook implements CostBook {
  readonly #days = new Map<string, DayTotals>();

  async record({ at, cost }: CostEntry): Promise<void> {
    addToDay(this.#days, costDayOf(at), 1, agentsOf(cost));
  }

  async days(range: { from: string; to: string }): Promise<CostDay[]> {
    return daysBetween(range).flatMap((day) => {
      const book = this.#days.get(day);
      return book ? [costDay(day, book.requests, book.agents)] : [];
    });
  }
}
