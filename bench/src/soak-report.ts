/**
 * The soak's report: the table (one row per configuration), the throughput ratio against the
 * baseline, where the CPU went, and everything odd (failures by kind, duplicates, service log lines).
 */
import { availableParallelism } from 'node:os';
import type { ProcessUsage } from './proc-stats.ts';
import type { RedisCounters } from './redis-counters.ts';
import type { FamilyCount } from './redis-monitor.ts';
import type { Audit } from './soak-audit.ts';
import type { Outcome } from './soak-load.ts';
import type { LogTally, SoakConfiguration } from './soak-system.ts';

/** Everything measured for one configuration. */
export interface ConfigurationResult {
  configuration: SoakConfiguration;
  /** Measured requests (warm-up excluded) and their outcomes. */
  measured: readonly Outcome[];
  /** Warm-up requests (audited and counted as lost or duplicated too, not timed). */
  warmup: readonly Outcome[];
  wallMs: number;
  audit: Audit;
  usage: readonly ProcessUsage[];
  /** VmRSS of each service process once it was up, before any request (warm-up included), in MB. */
  idleMb: ReadonlyMap<string, number>;
  /** Busy share of all the machine's cores over the measured window. */
  machineBusy: number;
  /** Model calls answered during the measured window. */
  modelCalls: number;
  /** What Redis was asked over the measured window; `own` when the server was the soak's alone. */
  /** `families`: commands by key family, when the soak ran with `--monitor`. */
  redis: RedisCounters & { own: boolean; families?: Map<string, FamilyCount> };
  logs: LogTally;
  spanBytes: number;
  /** When the services were up, the measured load began and ended, and the services were asked to stop and had. */
  phases: { ready: Date; measuredFrom: Date; measuredTo: Date; stopping: Date; stopped: Date };
  /** The measured window on the monotonic clock, in µs (the clock of V8's CPU profiles). */
  windowUs: { from: number; to: number };
}

const SERVICES = ['supervisor', 'orders', 'inventory', 'comms'];

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? Number.NaN;
}

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const times = (ratio: number) => (Number.isFinite(ratio) ? `${ratio.toFixed(2)}x` : 'n/a');

/** The numbers of a row. */
export function summarize(result: ConfigurationResult) {
  const all = [...result.warmup, ...result.measured];
  const ok = result.measured.filter((outcome) => outcome.ok);
  const latencies = ok.map((outcome) => outcome.latencyMs).sort((x, y) => x - y);
  return {
    requests: result.measured.length,
    ok: ok.length,
    lost: all.filter((outcome) => !outcome.ok).length,
    duplicated: result.audit.duplicated,
    perSecond: (ok.length / result.wallMs) * 1000,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
  };
}

/** The processes of a service: `orders`, `orders-2`, … */
function processesOf(usage: readonly ProcessUsage[], service: string): ProcessUsage[] {
  return usage.filter((entry) => entry.name === service || entry.name.startsWith(`${service}-`));
}

/** Peak MB of each process of a service, e.g. `151 / 148` for two replicas. */
function peaks(usage: readonly ProcessUsage[], service: string): string {
  return (
    processesOf(usage, service)
      .map((entry) => fixed(entry.peakMb, 0))
      .join(' / ') || '-'
  );
}

/** Idle MB of each process of a service (after start, before any request), e.g. `121 / 120`. */
function idles(result: ConfigurationResult, service: string): string {
  return (
    processesOf(result.usage, service)
      .map((entry) => fixed(result.idleMb.get(entry.name) ?? Number.NaN, 0))
      .join(' / ') || '-'
  );
}

/** Service CPU ms per answered request, every service process added up. */
function serviceCpuPerRequest(result: ConfigurationResult, ok: number): number {
  const services = result.usage.filter((entry) =>
    SERVICES.some((service) => processesOf([entry], service).length),
  );
  return services.reduce((sum, entry) => sum + entry.cpuMs, 0) / ok;
}

/** Prints the report to stdout. */
export function printReport(results: readonly ConfigurationResult[], header: string): void {
  const rows = results.map((result) => ({ result, ...summarize(result) }));
  const width = Math.max(
    'configuration'.length,
    ...results.map((result) => result.configuration.name.length),
  );
  const cellWidth = (cell: (result: ConfigurationResult, service: string) => string) =>
    SERVICES.map((service) =>
      Math.max(service.length, ...results.map((result) => cell(result, service).length)),
    );
  const idleWidth = cellWidth(idles);
  const peakWidth = cellWidth((result, service) => peaks(result.usage, service));
  const pad = (value: string | number, size: number) => String(value).padStart(size);
  const group = (widths: number[], cell: (service: string) => string) =>
    SERVICES.map((service, i) => pad(cell(service), widths[i] ?? 0)).join(' | ');
  console.log(`${header}\n`);
  console.log(
    `${'configuration'.padEnd(width)} | requests |     ok | lost | duplicated |  req/s | p50 ms | p99 ms | service CPU ms/req | ` +
      `idle MB ${group(idleWidth, (service) => service)} | peak MB ${group(peakWidth, (service) => service)}`,
  );
  for (const row of rows) {
    console.log(
      `${row.result.configuration.name.padEnd(width)} | ${pad(row.requests, 8)} | ${pad(row.ok, 6)} | ` +
        `${pad(row.lost, 4)} | ${pad(row.duplicated, 10)} | ${pad(fixed(row.perSecond, 1), 6)} | ` +
        `${pad(fixed(row.p50, 0), 6)} | ${pad(fixed(row.p99, 0), 6)} | ` +
        `${pad(fixed(serviceCpuPerRequest(row.result, row.ok), 1), 18)} | ${''.padStart(8)}` +
        `${group(idleWidth, (service) => idles(row.result, service))} | ${''.padStart(8)}` +
        group(peakWidth, (service) => peaks(row.result.usage, service)),
    );
  }
  const [baseline, ...others] = rows;
  for (const row of others) {
    console.log(
      `\nthroughput, ${row.result.configuration.name} against ${baseline?.result.configuration.name}: ` +
        times(row.perSecond / (baseline?.perSecond ?? Number.NaN)),
    );
  }
  for (const row of rows) printDetails(row.result, row.ok);
}

function printDetails(result: ConfigurationResult, ok: number): void {
  const { configuration, usage, wallMs, audit } = result;
  const { ready, measuredFrom, measuredTo, stopping, stopped } = result.phases;
  console.log(
    `\n${configuration.name}: services ready ${clock(ready)}, measured ${clock(measuredFrom)} to ` +
      `${clock(measuredTo)}, stopped ${clock(stopping)} to ${clock(stopped)}`,
  );
  const cores = (entry: ProcessUsage) => entry.cpuMs / wallMs;
  const byCpu = [...usage].sort((x, y) => y.cpuMs - x.cpuMs);
  const machineCores = availableParallelism();
  const ours = usage.reduce((sum, entry) => sum + cores(entry), 0);
  console.log(
    `  CPU over the measured ${fixed(wallMs / 1000, 1)} s: the machine's ${machineCores} cores ` +
      `${fixed(result.machineBusy * 100, 0)}% busy; the processes below ${fixed(ours, 2)} cores, everything else on ` +
      `the machine ${fixed(Math.max(0, result.machineBusy * machineCores - ours), 2)} cores`,
  );
  const others = Math.max(0, result.machineBusy * machineCores - ours);
  if (others > 0.2) {
    console.log(
      `  note: other work on this machine took ${fixed(others, 2)} cores meanwhile; this configuration's ` +
        'throughput and latency are lower than on a quiet machine',
    );
  }
  console.log('    process         cores (avg / busiest second)  CPU ms per answered request  peak MB');
  for (const entry of byCpu) {
    console.log(
      `    ${entry.name.padEnd(14)}  ${pad6(fixed(cores(entry), 2))} / ${fixed(entry.peakCores, 2).padEnd(23)}` +
        `${pad6(fixed(entry.cpuMs / ok, 1)).padEnd(29)}${pad6(fixed(entry.peakMb, 0))}` +
        `${entry.vanished ? '  (the process was gone before the end)' : ''}`,
    );
  }
  console.log(
    `  model calls: ${fixed(result.modelCalls / ok, 2)} per answered request; spans written: ` +
      `${fixed(result.spanBytes / 1e6, 1)} MB`,
  );
  const timeline = throughputTimeline(result.measured, wallMs);
  console.log(`  answered req/s by tenth of the run: ${timeline.map((value) => fixed(value, 1)).join(', ')}`);
  console.log('  RSS MB by tenth of the run (the largest sampled in each):');
  for (const entry of usage) {
    console.log(
      `    ${entry.name.padEnd(14)}  ${entry.rssByTenth.map((mb) => pad4(fixed(mb, 0))).join(' ')}`,
    );
  }
  const states = [...audit.states].sort(([x], [y]) => x.localeCompare(y));
  console.log(
    `  tasks in Redis (${audit.tasks}): ${states.map(([key, count]) => `${key.replace('TASK_STATE_', '')} ${count}`).join(', ')}`,
  );
  if (audit.unattributed > 0)
    console.log(`  tasks that belong to no request of the soak: ${audit.unattributed}`);
  if (audit.withoutSupervisorTask > 0)
    console.log(`  requests without a supervisor task: ${audit.withoutSupervisorTask}`);
  if (audit.withoutWorkerTask > 0)
    console.log(`  requests never delegated to their worker: ${audit.withoutWorkerTask}`);
  for (const example of audit.examples) console.log(`  duplicated: ${example}`);
  const kinds = new Map<string, { count: number; example: string }>();
  for (const outcome of [...result.warmup, ...result.measured]) {
    if (outcome.ok) continue;
    const entry = kinds.get(outcome.kind);
    if (entry) entry.count++;
    else kinds.set(outcome.kind, { count: 1, example: outcome.detail ?? '' });
  }
  for (const [kind, { count, example }] of kinds) {
    console.log(`  lost ${count}: ${kind}${example ? `, e.g. "${example}"` : ''}`);
  }
  if (result.logs.size === 0) console.log('  service log lines at warn or above: none');
  for (const [key, { count, first, last, example }] of [...result.logs]
    .sort(([, x], [, y]) => y.count - x.count)
    .slice(0, 12)) {
    const when = count === 1 ? `at ${clock(first)}` : `from ${clock(first)} to ${clock(last)}`;
    console.log(`  logged ${count}x ${when}: ${key}\n    e.g. ${example}`);
  }
}

const pad6 = (text: string) => text.padStart(6);
/** `10:42:17.617`, this machine's local time. */
const clock = (date: Date) =>
  `${date.toTimeString().slice(0, 8)}.${String(date.getMilliseconds()).padStart(3, '0')}`;
const pad4 = (text: string) => text.padStart(4);

/** Answered requests per second in each tenth of the measured window. */
function throughputTimeline(outcomes: readonly Outcome[], wallMs: number): number[] {
  const slice = wallMs / 10;
  const counts = Array.from({ length: 10 }, () => 0);
  for (const outcome of outcomes) {
    if (!outcome.ok) continue;
    const index = Math.min(9, Math.floor(outcome.endedAtMs / slice));
    counts[index] = (counts[index] ?? 0) + 1;
  }
  return counts.map((count) => (count / slice) * 1000);
}

/**
 * Prints the soak's verdict (no request lost or duplicated in any configuration, every
 * configuration ran) after `failures` found on the way; returns the exit code, 0 when it is met.
 */
export function printVerdict(
  results: readonly ConfigurationResult[],
  failures: readonly string[],
  configurations: number,
): number {
  const missed = [...failures];
  for (const result of results) {
    const { lost, duplicated } = summarize(result);
    const name = result.configuration.name;
    if (lost > 0) missed.push(`${name}: ${lost} requests lost (see the kinds above)`);
    if (duplicated > 0) missed.push(`${name}: ${duplicated} requests duplicated (see the examples above)`);
    if (result.audit.unattributed > 0) {
      missed.push(
        `${name}: ${result.audit.unattributed} tasks could not be matched to a request, so the audit is incomplete`,
      );
    }
  }
  if (results.length < configurations && missed.length === 0) missed.push('not every configuration ran');
  const target = `target: no request lost or duplicated in ${configurations === 1 ? 'the configuration' : 'any configuration'}`;
  console.log(
    missed.length === 0 ? `\n${target} -> met` : `\n${target} -> MISSED:\n  ${missed.join('\n  ')}`,
  );
  return missed.length === 0 ? 0 : 1;
}
