import type { GateResult } from '../gate/compare-reports.ts';
import type { CaseResult, EvalReport, Metrics } from './eval-report.ts';
import { METRIC_ROWS } from './metric-rows.ts';

/** The columns of the metrics table: each suite run, then overall. */
export function metricColumns(report: EvalReport): { name: string; metrics: Metrics }[] {
  const columns: { name: string; metrics: Metrics }[] = [];
  for (const suite of report.suites) {
    const metrics = report.metrics.suites[suite];
    if (metrics) columns.push({ name: suite, metrics });
  }
  columns.push({ name: 'overall', metrics: report.metrics.overall });
  return columns;
}

/** What each failed case got wrong, one block per case. */
export function failureLines(cases: readonly CaseResult[]): string[] {
  const lines: string[] = [];
  for (const result of cases.filter((item) => item.status === 'failed')) {
    lines.push(
      `  ✗ ${result.id} (${result.suite}${result.caller ? `, ${result.caller}` : ''}): ${result.title}${result.file ? `  [${result.file}]` : ''}`,
    );
    for (const check of result.expectations.filter((item) => item.status === 'failed')) {
      lines.push(`      ${check.name}: expected ${check.expected}`);
      lines.push(`      ${' '.repeat(check.name.length)}  seen: ${check.seen}`);
    }
    if (result.observation?.turns.length) lines.push(`      turns: ${result.observation.turns.join(' | ')}`);
  }
  return lines;
}

/** Gate lines: each regression, then the notes. */
export function gateLines(gate: GateResult, baselineFile: string): string[] {
  const lines = [
    gate.regressions.length === 0
      ? `Baseline ${baselineFile}: no regression.`
      : `Baseline ${baselineFile}: ${gate.regressions.length} regression${gate.regressions.length === 1 ? '' : 's'}:`,
    ...gate.regressions.map((regression) => `  ✗ ${regression.message}`),
  ];
  if (gate.notes.length > 0) lines.push('Notes:', ...gate.notes.map((note) => `  - ${note}`));
  return lines;
}

/**
 * The report for a terminal: a header, the metrics table (a column per suite and overall), each
 * failed case with the expectations that failed and what was seen, the skipped cases, and (when
 * given) the gate's verdict.
 */
export function formatTerminalReport({
  report,
  gate,
  baselineFile = 'the baseline',
}: {
  report: EvalReport;
  gate?: GateResult | undefined;
  baselineFile?: string;
}): string {
  const columns = metricColumns(report);
  const labelWidth = Math.max(...METRIC_ROWS.map((row) => row.label.length)) + 2;
  const cells = METRIC_ROWS.map((row) => columns.map((column) => row.value(column.metrics)));
  const widths = columns.map(
    (column, index) => Math.max(column.name.length, ...cells.map((row) => (row[index] ?? '').length)) + 2,
  );
  const line = (label: string, values: readonly string[]) =>
    `${label.padEnd(labelWidth)}${values.map((value, index) => value.padEnd(widths[index] ?? 0)).join('')}`.trimEnd();
  const { overall } = report.metrics;
  const out = [
    `Switchboard evals: ${overall.cases} case${overall.cases === 1 ? '' : 's'} run${overall.skipped ? `, ${overall.skipped} skipped` : ''}, ${overall.passed} passed, on ${report.model} (${report.target.label}) in ${(report.durationMs / 1000).toFixed(1)} s`,
    '',
    line(
      'METRIC',
      columns.map((column) => column.name.toUpperCase()),
    ),
    ...METRIC_ROWS.map((row, index) => line(row.label, cells[index] ?? [])),
  ];
  if (report.target.kind === 'deployment') {
    out.push(
      '',
      'Against a deployment the trajectory, steps and tokens are not observable (n/a); tool expectations are reported as not observable, not as passed.',
    );
  }
  const failures = failureLines(report.cases);
  out.push('', failures.length ? 'Failed cases:' : 'No case failed.', ...failures);
  const skipped = report.cases.filter((result) => result.status === 'skipped');
  if (skipped.length) {
    out.push(
      '',
      'Skipped cases:',
      ...skipped.map((result) => `  - ${result.id} (${result.suite}): ${result.skipReason ?? ''}`),
    );
  }
  const unobserved = report.cases.filter((result) =>
    result.expectations.some((check) => check.status === 'not-observable'),
  );
  if (unobserved.length) {
    out.push(
      '',
      `Not observable here: ${unobserved
        .map(
          (result) =>
            `${result.id} (${result.expectations
              .filter((check) => check.status === 'not-observable')
              .map((check) => check.name)
              .join(', ')})`,
        )
        .join('; ')}`,
    );
  }
  if (gate) out.push('', ...gateLines(gate, baselineFile));
  return `${out.join('\n')}\n`;
}
