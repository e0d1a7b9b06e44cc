import type { RunStateStore } from '@switchboard/host';
import type { TaskDirectory, TaskEventFeed } from '@switchboard/host/approvals';

/** One agent's records as the requests pages read them: its tasks, and the conversations behind them. */
export interface AgentRecordsOf {
  tasks: TaskDirectory;
  runs?: RunStateStore | undefined;
  /** Its tasks' events as they happen, for a request's progress. */
  events?: TaskEventFeed | undefined;
}

/**
 * Where the requests pages read the tasks of the team's other agents (the workers a supervisor
 * delegates to), beside the host's own. The service composes it over the registry and each agent's
 * store prefix (`registryAgentRecords`); `of` answers only for an agent it names, so a query cannot
 * reach any other prefix.
 */
export interface AgentRecords {
  /** The other agents whose tasks can be listed, by name. */
  names(): Promise<readonly string[]>;
  /** That agent's records, or `undefined` when it is not one of {@link AgentRecords.names}. */
  of(agent: string): Promise<AgentRecordsOf | undefined>;
}

/**
 * The team's other agents as the registry lists them (every agent with a live replica but this one),
 * each read through `recordsOf(name)`, made once per agent and kept.
 *
 * @example
 * registryAgentRecords({
 *   registry, self: 'supervisor',
 *   recordsOf: (name) => ({ tasks: new RedisTaskDirectory({ redis, prefix: `{switchboard:${name}}` }) }),
 * });
 */
export function registryAgentRecords({
  registry,
  self,
  recordsOf,
}: {
  registry: { list(): Promise<readonly { name: string }[]> };
  /** This host's own agent, whose records the host already hands the console. */
  self: string;
  recordsOf: (agent: string) => AgentRecordsOf;
}): AgentRecords {
  const made = new Map<string, AgentRecordsOf>();
  const names = async () =>
    [...new Set((await registry.list()).map((entry) => entry.name))].filter((name) => name !== self).sort();
  return {
    names,
    async of(agent) {
      if (!(await names()).includes(agent)) return undefined;
      let records = made.get(agent);
      if (!records) {
        records = recordsOf(agent);
        made.set(agent, records);
      }
      return records;
    },
  };
}
