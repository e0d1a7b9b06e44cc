/**
 * Writes `evals/baseline.json`: every suite of the repository's `evals/` run in process on the
 * offline model, the same run the CI test (`test/evals-suites.test.ts`) compares with it, without
 * each case's observations (see `baselineReport`).
 * Run it after adding or changing a case: `pnpm --filter @switchboard/customer-service-team baseline`.
 */
import { writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { customerFootprints } from '@switchboard/customer-service/system';
import {
  baselineReport,
  formatReportJson,
  formatTerminalReport,
  inProcessTarget,
  loadCases,
  openModelSource,
  runEvals,
} from '@switchboard/eval';
import { startInProcessTeam as startInProcessSystem } from '../src/index.ts';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const evalsDir = fileURLToPath(new URL('../../evals/', import.meta.url));
const file = `${evalsDir}baseline.json`;

const customers = customerFootprints();
const cases = await loadCases({ dir: evalsDir, cwd: repoRoot, users: customers.map((c) => c.id) });
process.stderr.write(`Running ${cases.length} eval cases on the offline model…\n`);
const report = await runEvals({
  cases,
  target: inProcessTarget({
    startSystem: startInProcessSystem,
    models: await openModelSource({ model: 'offline' }),
    users: customers,
  }),
  concurrency: 2,
  onCase: (result) =>
    process.stderr.write(`  ${result.status === 'passed' ? '✓' : '✗'} ${result.suite}/${result.id}\n`),
});
// Observations (answers, ids, dates) change from run to run; the gate reads none of them.
await writeFile(file, formatReportJson(baselineReport(report)));
process.stdout.write(formatTerminalReport({ report }));
process.stdout.write(`\nWrote ${relative(repoRoot, file)}: commit it with the cases.\n`);
