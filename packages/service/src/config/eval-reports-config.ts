import { statSync } from 'node:fs';
import type { ConfigProblem } from '@switchboard/config';
import { z } from 'zod';

/** Where the console's evals page reads eval reports (see `fileEvalsView` of `@switchboard/console`). */
export interface EvalReportsConfig {
  /** A directory of report JSON files (`SWITCHBOARD_EVAL_REPORTS`), written by `switchboard eval --out`. */
  reports: string | undefined;
  /** The baseline report (`SWITCHBOARD_EVAL_BASELINE`), e.g. `evals/baseline.json`. */
  baseline: string | undefined;
}

const REPORTS_VARIABLE = 'SWITCHBOARD_EVAL_REPORTS';
const BASELINE_VARIABLE = 'SWITCHBOARD_EVAL_BASELINE';

const kindOf = (path: string): 'directory' | 'file' | 'missing' => {
  try {
    return statSync(path).isDirectory() ? 'directory' : 'file';
  } catch {
    return 'missing';
  }
};

const EvalReportsEnv = z.object({
  [REPORTS_VARIABLE]: z
    .string()
    .trim()
    .refine((path) => kindOf(path) === 'directory', {
      error:
        'must be a directory of eval reports (switchboard eval --out <dir>/<run>.json); there is none there',
    })
    .optional(),
  [BASELINE_VARIABLE]: z
    .string()
    .trim()
    .refine((path) => kindOf(path) === 'file', {
      error: 'must be an eval report file (switchboard eval --out evals/baseline.json); there is none there',
    })
    .optional(),
});

/**
 * Reads `SWITCHBOARD_EVAL_REPORTS` (a directory) and `SWITCHBOARD_EVAL_BASELINE` (a file), both
 * optional (unset or empty: the evals page says how to set them); or names what is wrong with them.
 */
export function readEvalReportsConfig(
  env: NodeJS.ProcessEnv,
): { ok: true; config: EvalReportsConfig } | { ok: false; problems: ConfigProblem[] } {
  const given = Object.fromEntries(
    [REPORTS_VARIABLE, BASELINE_VARIABLE].flatMap((name) => (env[name]?.trim() ? [[name, env[name]]] : [])),
  );
  const parsed = EvalReportsEnv.safeParse(given);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) => ({
        variable: String(issue.path[0] ?? REPORTS_VARIABLE),
        message: `${issue.message} (${String(given[String(issue.path[0])] ?? '')})`,
      })),
    };
  }
  return {
    ok: true,
    config: { reports: parsed.data[REPORTS_VARIABLE], baseline: parsed.data[BASELINE_VARIABLE] },
  };
}
