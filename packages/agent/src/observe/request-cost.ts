import { z } from 'zod';

/** Most tokens one agent's entry may count: more is not a real request, and is refused. */
export const MAX_COST_TOKENS = 1_000_000_000;
/** Most milliseconds one entry may count (a week). */
export const MAX_COST_MS = 7 * 24 * 60 * 60 * 1000;
/** Most agents one request's cost may name. */
export const MAX_COST_AGENTS = 64;
/** The entry the agents of a cost beyond {@link MAX_COST_AGENTS} are added up under. */
export const OTHER_AGENTS = '(other agents)';
/** Most hops one request may take (each run of an agent for it is one hop). */
export const MAX_COST_HOPS = 10_000;

/** The figures' schema, each bounded at `scale` times one entry's bound (a total: the agents'). */
function figuresSchema(scale: number) {
  const tokens = z
    .number()
    .int()
    .nonnegative()
    .max(MAX_COST_TOKENS * scale);
  const millis = z
    .number()
    .int()
    .nonnegative()
    .max(MAX_COST_MS * scale);
  return z.object({
    /** Prompt tokens, summed over every model call (`gen_ai.usage.input_tokens`). */
    tokensIn: tokens,
    /** Completion tokens, summed over every model call (`gen_ai.usage.output_tokens`). */
    tokensOut: tokens,
    /** Time spent in model steps (the call and the context sent with it), in milliseconds. */
    modelMs: millis,
    /** Time spent in tool calls, summed per call (a delegation's call counts its whole wait). */
    toolMs: millis,
    /** Time the request's jobs waited on a queue before a worker took them. */
    queueWaitMs: millis,
    /** Runs of an agent for this request: 1 per agent per hop. */
    hops: z
      .number()
      .int()
      .nonnegative()
      .max(MAX_COST_HOPS * scale),
  });
}

/** The usage and timings of one part of a request: one agent's runs, or (scaled) all of them. */
export const CostFigures = figuresSchema(1);
export type CostFigures = z.infer<typeof CostFigures>;

/** One agent's share of a request: every run of it, in every hop of the request's tree. */
export const AgentCost = CostFigures.extend({
  agent: z.string().min(1).max(200),
});
export type AgentCost = z.infer<typeof AgentCost>;

/** The names of a cost's figures, in the order they are shown. */
export const COST_FIGURES = ['tokensIn', 'tokensOut', 'modelMs', 'toolMs', 'queueWaitMs', 'hops'] as const;

/**
 * What one request cost, across its whole agent tree: one entry per agent (summed over that agent's
 * hops), and the total, which is always the entries' sum. The wire shape a worker reports its
 * subtree in (see `COST_KEY` of `@switchboard/protocol`); parse what a peer sends with it.
 */
export const RequestCost = z
  .object({
    agents: z.array(AgentCost).max(MAX_COST_AGENTS),
    total: figuresSchema(MAX_COST_AGENTS),
  })
  .refine(({ agents }) => new Set(agents.map((entry) => entry.agent)).size === agents.length, {
    message: 'each agent is named once',
  })
  .refine(({ agents, total }) => COST_FIGURES.every((key) => sumOf(agents, key) === total[key]), {
    message: 'the total is the sum of the agents’ entries',
  });
export type RequestCost = z.infer<typeof RequestCost>;

function sumOf(entries: readonly CostFigures[], key: (typeof COST_FIGURES)[number]): number {
  return entries.reduce((sum, entry) => sum + entry[key], 0);
}

/** Figures with every count at zero. */
export function emptyFigures(): CostFigures {
  return { tokensIn: 0, tokensOut: 0, modelMs: 0, toolMs: 0, queueWaitMs: 0, hops: 0 };
}

/** Adds figures, capped at the schema's bounds so a sum of valid figures stays valid. */
export function addFigures(a: CostFigures, b: CostFigures): CostFigures {
  const cap = (key: (typeof COST_FIGURES)[number], max: number) => Math.min(a[key] + b[key], max);
  return {
    tokensIn: cap('tokensIn', MAX_COST_TOKENS),
    tokensOut: cap('tokensOut', MAX_COST_TOKENS),
    modelMs: cap('modelMs', MAX_COST_MS),
    toolMs: cap('toolMs', MAX_COST_MS),
    queueWaitMs: cap('queueWaitMs', MAX_COST_MS),
    hops: cap('hops', MAX_COST_HOPS),
  };
}

/**
 * A request's cost from per-agent entries: entries of one agent are added into one, in the order
 * first seen; past {@link MAX_COST_AGENTS} agents the rest are added up as {@link OTHER_AGENTS}, so
 * the total is always the sum of everything given.
 *
 * @example
 * costOf([{ agent: 'orders', tokensIn: 10, tokensOut: 2, modelMs: 5, toolMs: 1, queueWaitMs: 3, hops: 1 }]);
 */
export function costOf(entries: readonly AgentCost[]): RequestCost {
  const byAgent = new Map<string, CostFigures>();
  for (const { agent, ...figures } of entries) {
    const name = byAgent.has(agent) || byAgent.size < MAX_COST_AGENTS - 1 ? agent : OTHER_AGENTS;
    byAgent.set(name, addFigures(byAgent.get(name) ?? emptyFigures(), figures));
  }
  const agents = [...byAgent].map(([agent, figures]) => ({ agent, ...figures }));
  // Summed without the entry caps: the total is exactly the entries' sum, as the schema checks.
  const total = emptyFigures();
  for (const entry of agents) for (const key of COST_FIGURES) total[key] += entry[key];
  return { agents, total };
}

/** Two requests' (or a request's and a subtree's) costs as one. */
export function mergeCosts(a: RequestCost, b: RequestCost): RequestCost {
  return costOf([...a.agents, ...b.agents]);
}
