import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type EvalReport, readReport } from '@switchboard/eval';

/** An eval report and the file it was read from. */
export interface EvalReportFile {
  file: string;
  report: EvalReport;
}

/** What the evals page shows: the reports over time, the baseline, and the files it could not read. */
export interface EvalHistory {
  /** Every report read, oldest first (by `createdAt`); the last is the one compared. */
  reports: readonly EvalReportFile[];
  /** The baseline the gate compares with (`switchboard eval --baseline`); none when not configured. */
  baseline?: EvalReportFile | undefined;
  /** Files that are not eval reports, each with why. */
  unreadable: readonly { file: string; problem: string }[];
}

/** Where the evals page reads the eval reports from. */
export interface EvalsView {
  read(): Promise<EvalHistory>;
}

/** Options of {@link fileEvalsView}. */
export interface FileEvalsViewOptions {
  /** A directory of report JSON files (`switchboard eval --out <dir>/<run>.json`), `SWITCHBOARD_EVAL_REPORTS`. */
  reports?: string | undefined;
  /** The baseline report file (`evals/baseline.json`), `SWITCHBOARD_EVAL_BASELINE`. */
  baseline?: string | undefined;
}

/** Reports read at most from the directory, the latest kept. */
const MAX_REPORTS = 200;

/**
 * Eval reports from files: every `*.json` of the `reports` directory (the baseline file aside) and
 * the `baseline`, each checked as `switchboard eval` checks a baseline (`readReport`).
 *
 * @example
 * consoleRoutes({ evals: fileEvalsView({ reports: 'evals/reports', baseline: 'evals/baseline.json' }) });
 */
export function fileEvalsView({ reports, baseline }: FileEvalsViewOptions): EvalsView {
  return {
    async read() {
      const unreadable: { file: string; problem: string }[] = [];
      const attempt = async (file: string): Promise<EvalReportFile | undefined> => {
        try {
          return { file, report: await readReport({ file }) };
        } catch (error) {
          unreadable.push({ file, problem: error instanceof Error ? error.message : String(error) });
          return undefined;
        }
      };
      const names = reports ? (await readdir(reports)).filter((name) => name.endsWith('.json')).sort() : [];
      const skip = baseline ? resolve(baseline) : undefined;
      const files = names.map((name) => join(reports ?? '', name)).filter((file) => resolve(file) !== skip);
      const read = (await Promise.all(files.map(attempt))).flatMap((entry) => (entry ? [entry] : []));
      read.sort((a, b) => Date.parse(a.report.createdAt) - Date.parse(b.report.createdAt));
      return {
        reports: read.slice(-MAX_REPORTS),
        baseline: baseline ? await attempt(baseline) : undefined,
        unreadable,
      };
    },
  };
}
