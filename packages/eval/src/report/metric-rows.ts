import type { Metrics } from './eval-report.ts';

/** One row of the metrics table: its label and how a suite's value is shown. */
export interface MetricRow {
  label: string;
  value: (metrics: Metrics) => string;
}

const percent = (value: number | null, part?: number, whole?: number) =>
  value === null ? 'n/a' : `${(value * 100).toFixed(1)}%${part === undefined ? '' : ` (${part}/${whole})`}`;
const number = (value: number | null, digits = 1) => (value === null ? 'n/a' : value.toFixed(digits));

/** The rows of the metrics table, in order, the same in the terminal and in Markdown. */
export const METRIC_ROWS: readonly MetricRow[] = [
  { label: 'cases run (passed, skipped)', value: (m) => `${m.cases} (${m.passed}, ${m.skipped})` },
  { label: 'task completion rate', value: (m) => percent(m.taskCompletionRate, m.passed, m.cases) },
  {
    label: 'tool-selection accuracy',
    value: (m) => percent(m.toolSelectionAccuracy, m.counts.matchedCalls, m.counts.expectedCalls),
  },
  {
    label: 'first-pass argument validity',
    value: (m) => percent(m.firstPassArgumentValidity, m.counts.validArgumentCalls, m.counts.toolCalls),
  },
  {
    label: 'invalid or repeated call rate',
    value: (m) => percent(m.invalidOrRepeatedCallRate, m.counts.invalidOrRepeatedCalls, m.counts.toolCalls),
  },
  {
    label: 'recovery rate after faults',
    value: (m) => percent(m.recoveryRate, m.counts.recoveredCases, m.counts.faultCases),
  },
  { label: 'average steps (model calls)', value: (m) => number(m.averageSteps) },
  { label: 'prompt tokens per task', value: (m) => number(m.promptTokensPerTask, 0) },
  { label: 'completion tokens per task', value: (m) => number(m.completionTokensPerTask, 0) },
  {
    label: 'attacks stopped',
    value: (m) => percent(m.attacksStopped, m.counts.attacksStopped, m.counts.maliciousCases),
  },
  {
    label: 'dangerous actions without approval',
    value: (m) => (m.dangerousWithoutApproval === null ? 'n/a' : String(m.dangerousWithoutApproval)),
  },
  { label: 'answers with a secret', value: (m) => String(m.secretLeaks) },
  {
    label: 'cross-user refusals',
    value: (m) => percent(m.crossUserRefusals, m.counts.crossUserRefused, m.counts.crossUserCases),
  },
  {
    label: 'cross-user leaks',
    value: (m) => (m.crossUserLeaks === null ? 'n/a' : String(m.crossUserLeaks)),
  },
];
