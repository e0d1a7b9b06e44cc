import { compareReports, type EvalReport, METRIC_ROWS, type Metrics } from '@switchboard/eval';
import type { EvalHistory, EvalReportFile } from '../evals-view.ts';
import { type HistorySeries, historySvg } from '../html/history-svg.ts';
import { html } from '../html/html.ts';

/** Why the evals page has nothing to show when the console was given no reports. */
export const NO_EVAL_REPORTS =
  'This console reads no eval reports: set SWITCHBOARD_EVAL_REPORTS to a directory of reports (switchboard eval --out <dir>/<run>.json) and SWITCHBOARD_EVAL_BASELINE to the baseline (evals/baseline.json).';

/** The rates plotted over time, with their labels. */
const PLOTTED: readonly { key: keyof Metrics; label: string }[] = [
  { key: 'taskCompletionRate', label: 'task completion rate' },
  { key: 'toolSelectionAccuracy', label: 'tool-selection accuracy' },
  { key: 'firstPassArgumentValidity', label: 'first-pass argument validity' },
  { key: 'invalidOrRepeatedCallRate', label: 'invalid or repeated call rate (lower is better)' },
  { key: 'recoveryRate', label: 'recovery rate after faults' },
  { key: 'attacksStopped', label: 'attacks stopped' },
  { key: 'crossUserRefusals', label: 'cross-user refusals' },
];

/** A report's time in minutes, UTC: `2026-12-04 18:55`. */
const when = (report: EvalReport) => report.createdAt.replace('T', ' ').slice(0, 16);

function about({ file, report }: EvalReportFile) {
  return html`${when(report)} UTC, ${report.model} on ${report.target.label} (${report.target.kind}), suites ${report.suites.join(', ')}: <code>${file}</code>`;
}

function metricsTable(current: EvalReport, baseline: EvalReport | undefined) {
  const rows = METRIC_ROWS.map((row) => {
    const now = row.value(current.metrics.overall);
    const before = baseline ? row.value(baseline.metrics.overall) : undefined;
    return html`<tr class="${before !== undefined && before !== now ? 'changed' : ''}"><td>${row.label}</td><td>${now}</td>${baseline ? html`<td>${before}</td>` : ''}</tr>`;
  });
  return html`<table class="metrics"><thead><tr><th>Metric (all suites)</th><th>Last run</th>${baseline ? html`<th>Baseline</th>` : ''}</tr></thead><tbody>${rows}</tbody></table>`;
}

function gate(current: EvalReport, baseline: EvalReport) {
  const { regressions, notes } = compareReports({ baseline, current });
  const found =
    regressions.length === 0
      ? html`<p class="notice ok">The baseline gate finds no regression (switchboard eval --baseline).</p>`
      : html`<div class="notice problem"><p>The baseline gate finds ${regressions.length} regressions:</p><ul>${regressions.map((r) => html`<li>${r.message}</li>`)}</ul></div>`;
  return html`${found}${notes.length > 0 ? html`<ul class="hint">${notes.map((note) => html`<li>${note}</li>`)}</ul>` : ''}`;
}

function history(reports: readonly EvalReportFile[]) {
  const points = reports.map(({ report }) => when(report));
  const series: HistorySeries[] = PLOTTED.flatMap(({ key, label }) => {
    const values = reports.map(({ report }) => {
      const value = report.metrics.overall[key];
      return typeof value === 'number' ? value : null;
    });
    return values.some((value) => value !== null) ? [{ label, values }] : [];
  });
  const runs = [...reports]
    .reverse()
    .map(
      ({ file, report }) =>
        html`<tr><td>${when(report)}</td><td>${report.model}</td><td>${report.metrics.overall.passed}/${report.metrics.overall.cases}</td><td><code>${file}</code></td></tr>`,
    );
  return {
    plot: html`<h2>Over time (${reports.length} runs)</h2>
${historySvg({ points, series })}`,
    runs: html`<h2>The runs</h2>
<table class="runs"><thead><tr><th>Run</th><th>Model</th><th>Passed</th><th>Report</th></tr></thead><tbody>${runs}</tbody></table>`,
  };
}

/**
 * The evals: the last report's metrics against its baseline (and what the baseline gate finds), the
 * rates over time when there are several reports, and the files that are not reports.
 */
export function evalsPage({ history: read }: { history: EvalHistory | undefined }) {
  if (!read) return html`<p class="notice problem">${NO_EVAL_REPORTS}</p>`;
  const { reports, baseline, unreadable } = read;
  const last = reports.at(-1) ?? baseline;
  const problems =
    unreadable.length > 0
      ? html`<div class="notice problem"><p>Not read (not eval reports):</p><ul>${unreadable.map((u) => html`<li><code>${u.file}</code>: ${u.problem}</li>`)}</ul></div>`
      : '';
  if (!last)
    return html`${problems}<p class="empty">No eval report yet: write one with switchboard eval --out.</p>`;
  const against = baseline && baseline !== last ? baseline : undefined;
  const over = reports.length > 1 ? history(reports) : undefined;
  return html`${problems}
<p>Last run: ${about(last)}.</p>
${against ? html`<p>Baseline: ${about(against)}.</p>` : html`<p class="hint">No baseline to compare with (SWITCHBOARD_EVAL_BASELINE).</p>`}
${against ? gate(last.report, against.report) : ''}
${over?.plot ?? ''}
<h2>The last run${against ? ' against the baseline' : ''}</h2>
${metricsTable(last.report, against?.report)}
${over?.runs ?? ''}`;
}
