import { createRedisConnection } from '@switchboard/a2a/redis';
import { type PairComparison, ShadowPairStore, shadowPrefix, shadowReport } from '@switchboard/a2a/shadow';
import { EXIT, type Output } from '../io/output.ts';
import { redisAnswers } from '../system/local-redis.ts';

/** Options of {@link shadowReportCommand}. */
export interface ShadowReportOptions {
  redisUrl: string;
  namespace: string;
  agents: readonly string[];
  /** Only requests accepted since then. */
  since: Date | undefined;
  format: 'text' | 'json' | 'markdown';
  /** Disagreements listed at most (all of them in JSON). */
  limit: number;
  output: Output;
}

const percent = (share: number) => `${Math.round(share * 100)}%`;

/**
 * `switchboard shadow report`: how often each agent's shadow agreed with what really happened
 * (trajectory, write arguments, answers), its policy violations, and the disagreements worth a look
 * with both traces' ids.
 */
export async function shadowReportCommand({
  redisUrl,
  namespace,
  agents,
  since,
  format,
  limit,
  output,
}: ShadowReportOptions): Promise<number> {
  if (!(await redisAnswers(redisUrl))) {
    output.err(`Redis does not answer at ${redisUrl}. Start it (or "switchboard dev"), or set REDIS_URL.`);
    return EXIT.problems;
  }
  const redis = createRedisConnection({ url: redisUrl });
  try {
    const rows = [];
    for (const agent of agents) {
      const pairs = await new ShadowPairStore({ redis, prefix: shadowPrefix(namespace, agent) }).list(
        since ? { since } : {},
      );
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
    if (format === 'json') {
      output.out(JSON.stringify({ namespace, since: since?.toISOString(), reports: rows }));
      return EXIT.ok;
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
  const what = [
    ...c.violations.map((v) =>
      v.kind === 'dangerous'
        ? `dangerous ${v.tool} the ${c.baseline} side did not take`
        : `extra write ${v.tool}`,
    ),
    ...(c.sameTrajectory ? [] : ['other tools']),
    ...(c.sameWrites ? [] : ['other write arguments']),
    ...(c.sameAnswer ? [] : [`other answer (similarity ${c.answerSimilarity.toFixed(2)})`]),
  ];
  const traces = `${c.baseline} trace ${c.traceIds.baseline ?? '-'}, shadow trace ${c.traceIds.shadow ?? '-'}`;
  return `${c.agent} ${c.candidate} task ${c.taskId}: ${what.join('; ')} (${traces})`;
}
