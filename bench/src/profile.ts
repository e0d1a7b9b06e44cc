/**
 * Where a request's CPU goes: the soak's baseline configuration (one process per service) with every
 * service process under `node --cpu-prof`, then, from each service's profile, the busy ms per
 * answered request and the share of that busy time by concern (the rules of `profile-concerns.ts`),
 * over the soak's measured window only (start-up and warm-up left out), in one table; and the
 * functions the supervisor spends the most self time in.
 *
 *   pnpm --filter @switchboard/bench run profile [-- --requests 2000 --profile-dir <dir>
 *                                                  and the soak's other options]
 *
 * (`run` is needed: pnpm takes a bare `profile` for its own, unimplemented, command.)
 *
 * The profiles are written to a temporary folder and deleted after, unless `--profile-dir` names a
 * folder to keep them in (open them in Chrome DevTools' Performance panel). Profiling slows the
 * services a little, so the throughput here is not the soak's. Exits 1 when a request was lost or
 * duplicated, or a service wrote no profile.
 */
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type ProfileSummary, readCpuProfile, summarizeProfile } from './cpu-profile.ts';
import { printProfileReport } from './profile-report.ts';
import { printCostReport } from './soak-cost-report.ts';
import { SOAK_PROMPTS } from './soak-load.ts';
import { readSoakOptions } from './soak-options.ts';
import { printReport, printVerdict } from './soak-report.ts';
import { runSoak } from './soak-run.ts';
import type { SoakConfiguration } from './soak-system.ts';

const BASELINE: SoakConfiguration = { name: '1 process per worker (baseline), profiled', replicas: {} };
const SERVICES = ['supervisor', 'orders', 'inventory', 'comms'];

const { options, strings } = readSoakOptions('profile', process.argv.slice(2), {
  defaults: { requests: 2_000 },
  extra: ['profile-dir'],
});
const keep = strings['profile-dir'];
const dir = keep ? resolve(keep) : await mkdtemp(join(tmpdir(), 'switchboard-profile-'));
await mkdir(dir, { recursive: true });
try {
  const { results, failures } = await runSoak({
    options,
    configurations: [BASELINE],
    nodeFlags: ['--cpu-prof', `--cpu-prof-dir="${dir}"`],
  });
  const [result] = results;
  if (result) {
    printReport(
      results,
      `Profile: ${options.requests} requests (after ${options.warmup} warm-up), ${options.concurrency} in flight, ` +
        `alternating ${SOAK_PROMPTS.map((prompt) => `"${prompt.text}"`).join(' and ')}; every model call takes ` +
        `${options.latencyMs} ms; every service under node --cpu-prof`,
    );
    printCostReport(results);
    const files = await readdir(dir);
    const summaries = new Map<string, ProfileSummary>();
    for (const service of SERVICES) {
      const pid = result.usage.find((entry) => entry.name === service)?.pid;
      const file = files.find((name) => name.endsWith('.cpuprofile') && name.includes(`.${pid}.`));
      if (!file) {
        failures.push(`${service} (pid ${pid}) wrote no CPU profile to ${dir}`);
        continue;
      }
      const profile = await readCpuProfile(join(dir, file));
      summaries.set(
        service,
        summarizeProfile(profile, { fromUs: result.windowUs.from, toUs: result.windowUs.to }),
      );
    }
    printProfileReport({ result, summaries });
  }
  process.exitCode = printVerdict(results, failures, 1);
  if (keep) console.log(`\nprofiles kept in ${dir}`);
} finally {
  if (!keep) await rm(dir, { recursive: true, force: true });
}
