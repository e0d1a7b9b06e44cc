import type { ChatModel } from '@switchboard/agent';
import { createRedisConnection, type RedisConnectionOptions } from '@switchboard/redis';
import {
  comparePair,
  judgePair,
  type PairComparison,
  pairDifferences,
  type ShadowPair,
  ShadowPairStore,
  shadowPrefix,
  shadowReport,
} from '@switchboard/shadow';
import { EXIT, type Output } from '../io/output.ts';
import { redisAnswers } from '../system/local-redis.ts';
import { describeRedis } from '../system/redis-target.ts';

/** Options of {@link shadowReportCommand}. */
export interface ShadowReportOptions {
  /** One Redis node by URL, or a Redis Cluster, with its login (see `redisTarget`). */
  redis: RedisConnectionOptions;
  namespace: string;
  agents: readonly string[];
  /** Only requests accepted since then. */
  since: Date | undefined;
  format: 'text' | 'json' | 'markdown';
  /** Disagreements listed at most (all of them in JSON). */
  limit: number;
  /**
   * A judge model for answers that are not the same text: each such pair without a current verdict
   * of this model is judged (at most `max` a run) and the verdict kept in the pair.
   */
  judge?: { model: ChatModel; max: number } | undefined;
  output: Output;
}

/** Judge calls in flight at once. */
const JUDGE_CONCURRENCY = 4;

const percent = (share: number) => `${Math.round(share * 100)}%`;

/**
 * `switchboard shadow report`: how often each agent's shadow agreed with what really happened
 * (trajectory, write arguments, answers), its policy violations, and the disagreements worth a look
 * with both traces' ids.
 */
export async function shadowReportCommand({
  redis: target,
  namespace,
  agents,
  since,
  format,
  limit,
  judge,
  output,
}: ShadowReportOptions): Promise<number> {
  if (!(await redisAnswers(target, 5_000))) {
    output.err(
      `Redis does not answer at ${describeRedis(target)}. Start it (or "switchboard dev"), or set REDIS_URL (or REDIS_CLUSTER_NODES).`,
    );
    return EXIT.problems;
  }
  const redis = createRedisConnection(target);
  try {
    const rows = [];
    const judging = { judged: 0, failed: 0, left: 0, budget: judge?.max ?? 0 };
    for (const agent of agents) {
      const store = new ShadowPairStore({ redis, prefix: shadowPrefix(namespace, agent) });
      let pairs = await store.list(since ? { since } : {});
      if (judge) pairs = await judgeAnswers({ pairs, store, model: judge.model, judging, output });
      const candidates = [...new Set(pairs.map((pair) => pair.candidate))];
      for (const candidate of candidates) {
        rows.push({
          agent,
          candidate,
          ...shadowReport(pairs.filter((pair) => pair.candidate === candidate)),
        });
      }
    }
    const scope = `namespace ${namespace}${since ? `, since ${since.toISOString()}` : ''}`;
    const judged = judge && {
      model: judge.model.modelId,
      judged: judging.judged,
      failed: judging.failed,
      left: judging.left,
    };
    if (format === 'json') {
      output.out(
        JSON.stringify({
          namespace,
          since: since?.toISOString(),
          ...(judged ? { judge: judged } : {}),
          reports: rows,
        }),
      );
      return EXIT.ok;
    }
    if (judged) {
      output.err(
        `Judge ${judged.model}: ${judged.judged} pairs judged now${judged.failed ? `, ${judged.failed} without a valid verdict (see the log)` : ''}${judged.left ? `, ${judged.left} left for the next run (--judge-max)` : ''}.`,
      );
    }
    if (rows.length === 0) {
      output.out(
        `No shadow pairs in ${scope} for ${agents.join(', ')}. A shadow records them once <AGENT>_SHADOW_CANDIDATE and <AGENT>_SHADOW_SHARE are set and requests come in.`,
      );
      return EXIT.ok;
    }
    const header = [
      'agent',
      'candidate',
      'pairs',
      'compared',
      'vs operator',
      'same tools',
      'same writes',
      'same answer',
      ...(judge ? ['answers agree (judge)'] : []),
      'answer similarity',
      'extra writes',
      'dangerous',
    ];
    const table = rows.map((row) => [
      row.agent,
      row.candidate,
      String(row.pairs),
      String(row.compared),
      String(row.againstOperator),
      percent(row.agreement.trajectory),
      percent(row.agreement.writes),
      percent(row.agreement.answers),
      ...(judge ? [`${percent(row.agreement.answersAgree)} (${row.judged} judged)`] : []),
      row.agreement.meanAnswerSimilarity.toFixed(2),
      String(row.violations.extraWrites),
      String(row.violations.dangerous),
    ]);
    const disagreements = rows.flatMap((row) => row.disagreements).slice(0, limit);
    if (format === 'markdown') {
      output.out(`## Shadow report (${scope})\n`);
      output.out(`| ${header.join(' | ')} |`);
      output.out(`|${header.map(() => ' --- ').join('|')}|`);
      for (const cells of table) output.out(`| ${cells.join(' | ')} |`);
      if (disagreements.length > 0) {
        output.out('\n### Disagreements worth a look\n');
        for (const c of disagreements) output.out(`- ${describe(c)}`);
      }
      return EXIT.ok;
    }
    output.out(`Shadow report (${scope})`);
    const widths = header.map((title, i) =>
      Math.max(title.length, ...table.map((cells) => cells[i]?.length ?? 0)),
    );
    for (const cells of [header, ...table])
      output.out(
        cells
          .map((cell, i) => cell.padEnd(widths[i] ?? 0))
          .join('  ')
          .trimEnd(),
      );
    if (disagreements.length > 0) {
      output.out('\nDisagreements worth a look:');
      for (const c of disagreements) output.out(`  ${describe(c)}`);
    }
    return EXIT.ok;
  } finally {
    await redis.quit();
  }
}

/** One disagreement in a line: what differed, and the traces to open. */
function describe(c: PairComparison): string {
  const traces = `${c.baseline} trace ${c.traceIds.baseline ?? '-'}, shadow trace ${c.traceIds.shadow ?? '-'}`;
  return `${c.agent} ${c.candidate} task ${c.taskId}: ${pairDifferences(c).join('; ')} (${traces})`;
}

/**
 * Judges the pairs whose answers differ in text and have no current verdict of `model` (within the
 * run's budget), keeps each verdict in its pair, and gives the pairs back with them.
 */
async function judgeAnswers({
  pairs,
  store,
  model,
  judging,
  output,
}: {
  pairs: ShadowPair[];
  store: ShadowPairStore;
  model: ChatModel;
  judging: { judged: number; failed: number; left: number; budget: number };
  output: Output;
}): Promise<ShadowPair[]> {
  const due = pairs.filter((pair) => {
    const comparison = comparePair(pair);
    return comparison && !comparison.sameAnswer && comparison.judgement?.by !== model.modelId;
  });
  const now = due.slice(0, judging.budget);
  judging.budget -= now.length;
  judging.left += due.length - now.length;
  const verdicts = new Map<string, ShadowPair['judgement']>();
  const logger = {
    debug: () => {},
    info: () => {},
    warn: (fields: Record<string, unknown>, message: string) =>
      output.err(`${message} ${JSON.stringify(fields)}`),
    error: (fields: Record<string, unknown>, message: string) =>
      output.err(`${message} ${JSON.stringify(fields)}`),
  };
  let next = 0;
  const work = async () => {
    for (let pair = now[next++]; pair; pair = now[next++]) {
      const result = await judgePair({ pair, model, logger }).catch((error: unknown) => {
        logger.warn({ taskId: pair?.taskId, error: String(error) }, 'shadow judge call failed');
        return { ok: false as const, problem: 'the judge call failed' };
      });
      if (!result.ok) {
        judging.failed += 1;
        continue;
      }
      judging.judged += 1;
      verdicts.set(pair.taskId, result.judgement);
      await store.judge(pair.taskId, result.judgement);
    }
  };
  await Promise.all(Array.from({ length: Math.min(JUDGE_CONCURRENCY, now.length) }, work));
  return pairs.map((pair) => {
    const judgement = verdicts.get(pair.taskId);
    return judgement ? { ...pair, judgement } : pair;
  });
}
