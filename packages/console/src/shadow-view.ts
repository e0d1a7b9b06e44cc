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
  /** The same agreement day by day (UTC, by when each request was accepted), oldest first. */
  byDay: readonly { day: string; compared: number; agreement: ShadowReport['agreement'] }[];
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
          const mine = pairs.filter((pair) => pair.candidate === candidate);
          const days = [...new Set(mine.map((pair) => pair.acceptedAt.slice(0, 10)))].sort();
          const byDay = days.map((day) => {
            const { compared, agreement } = shadowReport(
              mine.filter((pair) => pair.acceptedAt.startsWith(day)),
            );
            return { day, compared, agreement };
          });
          rows.push({ agent, candidate, ...shadowReport(mine), byDay });
        }
      }
      return rows;
    },
  };
}
