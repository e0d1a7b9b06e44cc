/**
 * The profile's tables: per service, busy ms per answered request and the share of busy time by
 * concern; then the supervisor's functions by self time.
 */
import type { ProfileSummary } from './cpu-profile.ts';
import { CONCERNS } from './profile-concerns.ts';
import type { ConfigurationResult } from './soak-report.ts';

/** How many of the supervisor's functions the second table lists. */
const TOP_FUNCTIONS = 15;

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const percent = (part: number, whole: number) => (whole > 0 ? `${fixed((part / whole) * 100, 1)}%` : '-');

/** Prints both tables to stdout. `summaries`: service name → its profile over the measured window. */
export function printProfileReport({
  result,
  summaries,
}: {
  result: ConfigurationResult;
  summaries: ReadonlyMap<string, ProfileSummary>;
}): void {
  const ok = result.measured.filter((outcome) => outcome.ok).length;
  const services = [...summaries.keys()];
  const cpuOf = (service: string) => result.usage.find((entry) => entry.name === service)?.cpuMs ?? 0;
  const total = (concern: string) =>
    services.reduce((sum, service) => sum + (summaries.get(service)?.byConcern.get(concern) ?? 0), 0);
  const concerns = CONCERNS.filter((concern) => total(concern) > 0).sort((x, y) => total(y) - total(x));
  const labels = [
    'CPU ms per answered request (/proc, all threads)',
    'profile: non-idle ms per answered request',
  ];
  const width = Math.max(...[...concerns, ...labels].map((label) => label.length));
  const columns = services.map((service) => Math.max(service.length, 7));
  const row = (label: string, cells: readonly string[]) =>
    console.log(
      `${label.padEnd(width)} | ${cells.map((cell, i) => cell.padStart(columns[i] ?? 0)).join(' | ')}`,
    );
  console.log(
    '\nWhere the services spend their time over the measured window: CPU ms per answered request, then ' +
      "each concern's share of the busy samples of the service's CPU profile (main thread, a sample a ms, " +
      'idle left out; rules: bench/src/profile-concerns.ts). The profile counts wall time, so on a machine ' +
      'short of cores its non-idle ms include time spent waiting for one; the shares are what to read\n',
  );
  row('', services);
  row(
    labels[0] ?? '',
    services.map((service) => fixed(cpuOf(service) / ok, 1)),
  );
  row(
    labels[1] ?? '',
    services.map((service) => fixed((summaries.get(service)?.busyMs ?? 0) / ok, 1)),
  );
  for (const concern of concerns) {
    row(
      concern,
      services.map((service) => {
        const summary = summaries.get(service);
        return percent(summary?.byConcern.get(concern) ?? 0, summary?.busyMs ?? 0);
      }),
    );
  }
  const supervisor = summaries.get('supervisor');
  if (!supervisor) return;
  console.log(
    `\nThe supervisor's ${TOP_FUNCTIONS} functions with the most self time: share of its busy samples, and that ` +
      'share of its CPU ms per answered request',
  );
  const top = [...supervisor.bySelf].sort(([, x], [, y]) => y - x).slice(0, TOP_FUNCTIONS);
  const cpuPerRequest = cpuOf('supervisor') / ok;
  for (const [label, ms] of top) {
    const share = supervisor.busyMs > 0 ? ms / supervisor.busyMs : 0;
    console.log(
      `  ${percent(ms, supervisor.busyMs).padStart(6)}  ${fixed(share * cpuPerRequest, 2).padStart(5)} ms  ${label}`,
    );
  }
}
