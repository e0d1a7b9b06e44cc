import { RequestCost } from '@switchboard/agent';
import { COST_KEY } from './metadata-keys.ts';

/** What {@link readTaskCost} found under `COST_KEY`. */
export type TaskCostReading =
  | { kind: 'none' }
  | { kind: 'cost'; cost: RequestCost }
  /** Something was there, but not a cost this side can trust; `problem` says what, for a log line. */
  | { kind: 'invalid'; problem: string };

/**
 * The cost a task (or its final event) carries under `COST_KEY`, checked: a peer's figures are
 * accepted only when every count is a whole number within bounds, each agent is named once and the
 * total is the entries' sum. Never throws.
 *
 * @example
 * const reading = readTaskCost(task.metadata);
 * if (reading.kind === 'cost') meter.add(reading.cost);
 * else if (reading.kind === 'invalid') logger.warn({ problem: reading.problem }, 'ignored a peer’s cost');
 */
export function readTaskCost(metadata: Readonly<Record<string, unknown>> | undefined): TaskCostReading {
  const value = metadata?.[COST_KEY];
  if (value === undefined || value === null) return { kind: 'none' };
  const parsed = RequestCost.safeParse(value);
  if (parsed.success) return { kind: 'cost', cost: parsed.data };
  const problem = parsed.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || 'cost'}: ${issue.message}`)
    .join('; ');
  return { kind: 'invalid', problem };
}
