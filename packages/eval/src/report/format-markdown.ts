import type { GateResult } from '../gate/compare-reports.ts';
import type { EvalReport } from './eval-report.ts';
import { metricColumns } from './format-terminal.ts';
import { METRIC_ROWS } from './metric-rows.ts';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/**
 * The report as Markdown (`switchboard eval --markdown report.md`), e.g. for a pull request
 * comment: the metrics table, the failed cases with what failed and what was seen, skipped cases,
 * and the gate's verdict when given.
 */
export function formatMarkdownReport({
  report,
  gate,
  baselineFile = 'the baseline',
}: {
  report: EvalReport;
  gate?: GateResult | undefined;
  baselineFile?: string;
}): string {
  const columns = metricColumns(report);
  const { overall } = report.metrics;
  const out = [
    '# Switchboard evals',
    '',
    `${overall.cases} case${overall.cases === 1 ? '' : 's'} run${overall.skipped ? `, ${overall.skipped} skipped` : ''}, ${overall.passed} passed, on \`${report.model}\` (${report.target.label}), ${report.createdAt}, ${(report.durationMs / 1000).toFixed(1)} s.`,
    '',
    `| Metric | ${columns.map((column) => column.name).join(' | ')} |`,
    `| --- | ${columns.map(() => '---:').join(' | ')} |`,
    ...METRIC_ROWS.map(
      (row) => `| ${row.label} | ${columns.map((column) => cell(row.value(column.metrics))).join(' | ')} |`,
    ),
  ];
  const failed = report.cases.filter((result) => result.status === 'failed');
  out.push('', '## Failed cases', '');
  if (failed.length === 0) out.push('None.');
  for (const result of failed) {
    out.push(`### \`${result.id}\` (${result.suite}): ${cell(result.title)}`, '');
    out.push('| Expectation | Expected | Seen |', '| --- | --- | --- |');
    for (const check of result.expectations.filter((item) => item.status === 'failed')) {
      out.push(`| ${check.name} | ${cell(check.expected)} | ${cell(check.seen)} |`);
    }
    out.push('');
  }
  const skipped = report.cases.filter((result) => result.status === 'skipped');
  if (skipped.length) {
    out.push(
      '## Skipped cases',
      '',
      ...skipped.map((result) => `- \`${result.id}\` (${result.suite}): ${result.skipReason ?? ''}`),
      '',
    );
  }
  out.push(
    '## Cases',
    '',
    '| Case | Suite | Result | Steps | Seconds |',
    '| --- | --- | --- | ---: | ---: |',
  );
  for (const result of report.cases) {
    const steps = result.counts?.steps;
    out.push(
      `| \`${result.id}\` | ${result.suite} | ${result.status} | ${steps === null || steps === undefined ? 'n/a' : steps} | ${(result.durationMs / 1000).toFixed(1)} |`,
    );
  }
  if (gate) {
    out.push('', '## Baseline gate', '');
    out.push(
      gate.regressions.length === 0
        ? `No regression against ${baselineFile}.`
        : `${gate.regressions.length} regression(s) against ${baselineFile}:`,
    );
    out.push(...gate.regressions.map((regression) => `- ${cell(regression.message)}`));
    if (gate.notes.length) out.push('', 'Notes:', '', ...gate.notes.map((note) => `- ${cell(note)}`));
  }
  return `${out.join('\n')}\n`;
}
