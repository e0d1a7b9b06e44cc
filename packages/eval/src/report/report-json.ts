import type { EvalReport } from './eval-report.ts';

const LINE_WIDTH = 110;

const isPrimitive = (value: unknown) => value === null || typeof value !== 'object';

function format(value: unknown, indent: string, lead: number): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every(isPrimitive)) {
      const flat = `[${value.map((item) => JSON.stringify(item) ?? 'null').join(', ')}]`;
      // `lead` is what precedes the value on its line; one more for a trailing comma.
      if (lead + flat.length + 1 <= LINE_WIDTH) return flat;
    }
    const items = value.map((item) => `${inner}${format(item, inner, inner.length)}`);
    return `[\n${items.join(',\n')}\n${indent}]`;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    if (entries.length === 0) return '{}';
    const lines = entries.map(([key, item]) => {
      const head = `${inner}${JSON.stringify(key)}: `;
      return `${head}${format(item, inner, head.length)}`;
    });
    return `{\n${lines.join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * A report (or any JSON value) as text, laid out the way the repository's formatter (Biome) writes
 * JSON: two-space indents, objects expanded, arrays of plain values on one line when they fit in
 * 110 columns. So a committed `evals/baseline.json` passes `biome ci` as written.
 */
export function formatReportJson(value: unknown): string {
  return `${format(value, '', 0)}\n`;
}

/**
 * The report without what each case observed (answers, calls, decisions): what a committed baseline
 * needs (metrics, each case's status, expectations and counts), small and with readable diffs.
 */
export function baselineReport(report: EvalReport): EvalReport {
  return { ...report, cases: report.cases.map(({ observation: _observation, ...rest }) => rest) };
}
