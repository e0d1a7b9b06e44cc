import {
  ShadowPairStore,
  type ShadowPairStoreOptions,
  type ShadowReport,
  shadowPrefix,
  shadowReport,
} from '@switchboard/shadow';

/** The shadow report of one agent's candidate, as `switchboard shadow report` prints a row of it. */
export interface ShadowReportRow extends ShadowReport {
  agent: string;
  candidate: string;
}

/** Where the shadow page reads the shadow reports from. */
export interface ShadowView {
  read(): Promise<readonly ShadowReportRow[]>;
}

/** Options of {@link redisShadowView}. */
export interface RedisShadowViewOptions {
  redis: ShadowPairStoreOptions['redis'];
  /** `SWITCHBOARD_NAMESPACE` of the team. */
  namespace: string;
  /** The agents whose shadow records to read (e.g. the team's, from the registry). */
  agents: () => Promise<readonly string[]>;
  /** Only requests accepted this long ago at most (default: every pair still kept). */
  sinceMs?: number;
}

/**
 * The shadow reports of the team's agents from their pair records in Redis (`ShadowPairStore`), one
 * row per agent and candidate, the same numbers `switchboard shadow report` prints.
 */
export function redisShadowView({ redis, namespace, agents, sinceMs }: RedisShadowViewOptions): ShadowView {
  return {
    async read() {
      const rows: ShadowReportRow[] = [];
      for (const agent of [...(await agents())].sort()) {
        const store = new ShadowPairStore({ redis, prefix: shadowPrefix(namespace, agent) });
        const pairs = await store.list(
          sinceMs === undefined ? {} : { since: new Date(Date.now() - sinceMs) },
        );
        for (const candidate of [...new Set(pairs.map((pair) => pair.candidate))]) {
          rows.push({
            agent,
            candidate,
            ...shadowReport(pairs.filter((pair) => pair.candidate === candidate)),
          });
        }
      }
      return rows;
    },
  };
}
