import { SUITES } from '../case/eval-case.ts';
import type { LoadedCase } from '../case/load-cases.ts';
import { checkCase, skippedCase } from '../check/check-case.ts';
import { EvaluationError } from '../errors.ts';
import { metricsBySuite } from '../metrics/compute-metrics.ts';
import type { CaseResult, EvalReport } from '../report/eval-report.ts';
import type { EvalTarget } from './eval-target.ts';
import { observeCase } from './run-case.ts';

/** Options of {@link runEvals}. */
export interface RunEvalsOptions {
  /** The cases (see `loadCases`). */
  cases: readonly LoadedCase[];
  /** Where they run (see `inProcessTarget`, `deploymentTarget`). Closed when the run ends. */
  target: EvalTarget;
  /** A case that takes longer fails (default 60 000 ms). */
  caseTimeoutMs?: number;
  /** Cases run at the same time (default 1). Each in-process case has its own system. */
  concurrency?: number;
  /** Told about each case as it finishes, e.g. for progress on stderr. */
  onCase?: (result: CaseResult) => void;
  now?: () => Date;
}

/**
 * Runs the cases on a target and returns the report: every case's checked expectations and what was
 * observed, and the metrics per suite and overall. Cases that cannot run on the target are
 * reported as skipped; a case that crashes or times out fails, the run goes on.
 *
 * @example
 * const cases = await loadCases({ dir: 'evals' });
 * const target = inProcessTarget({ startSystem: team.startInProcess, models: await openModelSource() });
 * const report = await runEvals({ cases, target });
 * process.stdout.write(formatTerminalReport({ report }));
 */
export async function runEvals({
  cases,
  target,
  caseTimeoutMs = 60_000,
  concurrency = 1,
  onCase,
  now = () => new Date(),
}: RunEvalsOptions): Promise<EvalReport> {
  const problems = [
    Array.isArray(cases) ? undefined : 'cases must be a list (from loadCases)',
    typeof target?.open === 'function'
      ? undefined
      : 'target must be an EvalTarget (inProcessTarget or deploymentTarget)',
    Number.isFinite(caseTimeoutMs) && caseTimeoutMs > 0
      ? undefined
      : `caseTimeoutMs ${caseTimeoutMs} must be above 0`,
    Number.isInteger(concurrency) && concurrency >= 1
      ? undefined
      : `concurrency ${concurrency} must be a whole number >= 1`,
  ].filter((problem) => problem !== undefined);
  if (problems.length > 0) {
    throw new EvaluationError('INVALID_OPTIONS', { message: `runEvals: ${problems.join('; ')}.` });
  }
  const startedAt = now();
  const t0 = performance.now();
  const results: CaseResult[] = new Array(cases.length);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const index = next++;
      const loaded = cases[index];
      if (!loaded) return;
      const { case: evalCase, file } = loaded;
      const reason = target.skipReason(evalCase);
      let result: CaseResult;
      if (reason) result = skippedCase({ evalCase, file, reason });
      else {
        const t = performance.now();
        const observation = await observeCase({ evalCase, target, timeoutMs: caseTimeoutMs });
        result = checkCase({ evalCase, file, observation, durationMs: performance.now() - t });
      }
      results[index] = result;
      onCase?.(result);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, cases.length) }, worker));
  } finally {
    await target.close();
  }
  const suites = SUITES.filter((suite) => cases.some((loaded) => loaded.case.suite === suite));
  return {
    version: 1,
    createdAt: startedAt.toISOString(),
    target: { kind: target.kind, label: target.label },
    model: target.model,
    suites,
    durationMs: Math.round(performance.now() - t0),
    metrics: metricsBySuite(results),
    cases: results,
  };
}
