/**
 * What holds a service's memory at idle, as tables, baseline and variants in one run.
 *
 *   pnpm --filter @switchboard/bench service-memory [-- --idle-s 5 --variants v8-glibc,semi-space-32,arena-16,baseline,semi-space-2 --skip-imports]
 *
 * 1. Imports in a bare `node` (a fresh process each, `--input-type=module -e`): the resident set and
 *    V8's used heap after nothing (a `.js` entry), after a `.ts` entry (Node's type stripper), and
 *    after importing one package (the OpenTelemetry SDK's parts, ours), with the modules it loaded and
 *    their source size.
 * 2. The customer-service system launched as in the soak (`soak-system.ts`: a private `redis-server`,
 *    the soak's model server), once per variant (node flags or environment for every service), each
 *    service loaded with `memory-probe.ts`; `baseline` is what the launcher starts services with
 *    (`SERVICE_RUNTIME`), `v8-glibc` V8's and glibc's own sizes on this machine (a variant's flags come
 *    after the launcher's, so they win); `--idle-s` seconds after the last service is ready (no
 *    request sent), each service's VmRSS from /proc and what the probe saw: anonymous and file-backed
 *    RSS, V8's heap (total, used, the code spaces, the young generation), external memory, and the
 *    modules loaded with their source size. Then the packages whose modules weigh most, per service.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { createRedisConnection } from '@switchboard/redis';
import { startChild } from './hop-children.ts';
import { startPrivateRedis } from './private-redis.ts';
import { memoryMb } from './proc-stats.ts';
import { startConfiguration } from './soak-system.ts';

/** A variant of the services' start: node flags and environment added to every service. */
interface Variant {
  name: string;
  nodeFlags: readonly string[];
  env: Readonly<Record<string, string>>;
}

const VARIANTS: Readonly<Record<string, Variant>> = {
  baseline: { name: "the launcher's (SERVICE_RUNTIME)", nodeFlags: [], env: {} },
  'v8-glibc': {
    name: "V8's and glibc's own sizes",
    nodeFlags: ['--max-semi-space-size=32'],
    env: { MALLOC_ARENA_MAX: '16' },
  },
  'semi-space-32': {
    name: '--max-semi-space-size=32 (V8 default)',
    nodeFlags: ['--max-semi-space-size=32'],
    env: {},
  },
  'arena-16': { name: 'MALLOC_ARENA_MAX=16 (glibc default)', nodeFlags: [], env: { MALLOC_ARENA_MAX: '16' } },
  'semi-space-2': { name: '--max-semi-space-size=2', nodeFlags: ['--max-semi-space-size=2'], env: {} },
};

const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg, i) => !(i === 0 && arg === '--')),
  options: {
    'idle-s': { type: 'string', default: '5' },
    variants: { type: 'string', default: 'v8-glibc,semi-space-32,arena-16,baseline,semi-space-2' },
    'skip-imports': { type: 'boolean', default: false },
  },
});
const idleS = Number(values['idle-s']);
const chosen = values.variants.split(',').map((name) => {
  const variant = VARIANTS[name];
  if (!variant) {
    console.error(`--variants: unknown "${name}"; choose from ${Object.keys(VARIANTS).join(', ')}`);
    process.exit(2);
  }
  return variant;
});
if (!Number.isFinite(idleS) || idleS < 0) {
  console.error(`--idle-s must be a number of seconds, got "${values['idle-s']}"`);
  process.exit(2);
}

const root = fileURLToPath(new URL('../..', import.meta.url));
const probe = fileURLToPath(new URL('./memory-probe.ts', import.meta.url));
const pad = (value: string | number, size: number) => String(value).padStart(size);
const mb1 = (value: number) => value.toFixed(1);

/** What tracing needs, NodeSDK aside: the tracer provider, the OTLP exporter, the instrumentations. */
const TRACING = [
  '@opentelemetry/sdk-trace',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/instrumentation-http',
  '@opentelemetry/instrumentation-undici',
  '@opentelemetry/resources',
  '@opentelemetry/core',
];

/** One import in a fresh `node`, measured after a second's settling. */
const IMPORTS: readonly { name: string; cwd: string; specifiers: readonly string[]; ts?: boolean }[] = [
  { name: 'nothing (a .js entry)', cwd: 'packages/telemetry', specifiers: [] },
  { name: 'nothing (a .ts entry: type stripping)', cwd: 'packages/telemetry', specifiers: [], ts: true },
  { name: '@opentelemetry/api', cwd: 'packages/telemetry', specifiers: ['@opentelemetry/api'] },
  {
    name: '@opentelemetry/sdk-trace + exporter-trace-otlp-http',
    cwd: 'packages/telemetry',
    specifiers: ['@opentelemetry/sdk-trace', '@opentelemetry/exporter-trace-otlp-http'],
  },
  {
    name: '@opentelemetry/instrumentation-http + -undici',
    cwd: 'packages/telemetry',
    specifiers: ['@opentelemetry/instrumentation-http', '@opentelemetry/instrumentation-undici'],
  },
  {
    name: 'tracing without NodeSDK (sdk-trace, exporter, instrumentations, context)',
    cwd: 'packages/telemetry',
    specifiers: [...TRACING, '@opentelemetry/context-async-hooks'],
  },
  {
    name: 'tracing with NodeSDK (what @switchboard/telemetry imports)',
    cwd: 'packages/telemetry',
    specifiers: [...TRACING, '@opentelemetry/sdk-node'],
  },
  { name: '@switchboard/telemetry', cwd: 'packages/service', specifiers: ['@switchboard/telemetry'] },
  { name: '@switchboard/console', cwd: 'packages/service', specifiers: ['@switchboard/console'] },
  { name: '@switchboard/host', cwd: 'packages/service', specifiers: ['@switchboard/host'] },
  { name: '@switchboard/service', cwd: 'packages/service', specifiers: ['@switchboard/service'] },
];

/** The script a bare process runs: count modules as they load, import, settle, print. */
function importScript(specifiers: readonly string[]): string {
  return `
import { registerHooks } from 'node:module';
let count = 0, bytes = 0;
registerHooks({ load(url, context, nextLoad) {
  const loaded = nextLoad(url, context);
  if (!url.startsWith('node:')) { count++; const s = loaded.source; bytes += typeof s === 'string' ? Buffer.byteLength(s) : (s?.byteLength ?? 0); }
  return loaded;
} });
for (const specifier of ${JSON.stringify(specifiers)}) await import(specifier);
await new Promise((resolve) => setTimeout(resolve, 1000));
const usage = process.memoryUsage();
console.log(JSON.stringify({ rss: usage.rss, heapUsed: usage.heapUsed, count, bytes }));
`;
}

async function measureImports(): Promise<void> {
  const run = promisify(execFile);
  const rows: { name: string; rss: number; heapUsed: number; count: number; bytes: number }[] = [];
  for (const { name, cwd, specifiers, ts } of IMPORTS) {
    // A .ts entry makes Node load its type stripper; `-e` code is JavaScript and does not.
    const entry = join(root, cwd, `.memory-import-${process.pid}.${ts ? 'ts' : 'mjs'}`);
    await writeFile(
      entry,
      `${ts ? 'const typed: number = 1; void typed;\n' : ''}${importScript(specifiers)}`,
    );
    try {
      const { stdout } = await run(process.execPath, [entry], { cwd: join(root, cwd) });
      rows.push({ name, ...(JSON.parse(stdout) as Omit<(typeof rows)[number], 'name'>) });
    } finally {
      await rm(entry, { force: true });
    }
  }
  const width = Math.max(...rows.map((row) => row.name.length));
  const bare = rows[0]?.rss ?? 0;
  console.log('What one import costs in a bare node (a fresh process each)\n');
  console.log(
    `${'imported'.padEnd(width)} | RSS MB | RSS added MB | heap used MB | modules | module source MB`,
  );
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(width)} | ${pad(mb1(row.rss / 1048576), 6)} | ${pad(mb1((row.rss - bare) / 1048576), 12)} | ` +
        `${pad(mb1(row.heapUsed / 1048576), 12)} | ${pad(row.count, 7)} | ${pad(mb1(row.bytes / 1048576), 16)}`,
    );
  }
}

interface ProbeReport {
  service: string;
  pid: number;
  rss: number;
  anonymous: number;
  file: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  spaces: Record<string, { committed: number; used: number }>;
  modules: Record<string, { count: number; bytes: number }>;
}

async function measureSystem(variant: Variant, model: string, redisUrl: string) {
  const probeDir = await mkdtemp(join(tmpdir(), 'switchboard-probe-'));
  const redis = createRedisConnection({ url: redisUrl });
  const running = await startConfiguration({
    redis,
    redisUrl,
    configuration: { name: variant.name, replicas: {} },
    modelUrl: model,
    nodeFlags: [`--import=${probe}`, ...variant.nodeFlags],
    env: { ...variant.env, SWITCHBOARD_PROBE_DIR: probeDir },
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, idleS * 1000 + 1100));
    const reports = new Map<string, ProbeReport & { vmRss: number }>();
    for (const [name, pid] of running.pids) {
      const vmRss = (await memoryMb(pid, 'VmRSS')) ?? Number.NaN;
      const file = (await readdir(probeDir)).find((entry) => entry.endsWith(`-${pid}.json`));
      if (!file) throw new Error(`the ${name} service wrote no probe report to ${probeDir}`);
      const report = JSON.parse(await readFile(join(probeDir, file), 'utf8')) as ProbeReport;
      reports.set(name, { ...report, vmRss });
    }
    return reports;
  } finally {
    await running.stop();
    await running.clean();
    await redis.quit();
    await rm(probeDir, { recursive: true, force: true });
  }
}

const SERVICES = ['supervisor', 'orders', 'inventory', 'comms'];

async function measureServices(): Promise<void> {
  const redis = await startPrivateRedis();
  const model = await startChild('soak-model-server.ts', ['--latency-ms', '0']);
  const results: { variant: Variant; reports: Awaited<ReturnType<typeof measureSystem>> }[] = [];
  try {
    for (const variant of chosen) {
      console.error(`service-memory: launching the system, ${variant.name}`);
      results.push({ variant, reports: await measureSystem(variant, model.ready.url, redis.url) });
    }
  } finally {
    await model.stop();
    await redis.stop();
  }
  const width = Math.max('variant'.length, ...results.map(({ variant }) => variant.name.length));
  console.log(
    `\nEach service ${idleS} s after the system was ready, no request sent (MB; memory-probe.ts loaded in each)\n`,
  );
  console.log(
    `${'service'.padEnd(10)} | ${'variant'.padEnd(width)} | VmRSS | anon | file | heap total | heap used | ` +
      'code+bytecode | young | external | modules | module source',
  );
  const space = (report: ProbeReport, name: string) => report.spaces[name]?.committed ?? 0;
  for (const service of SERVICES) {
    for (const { variant, reports } of results) {
      const report = reports.get(service);
      if (!report) continue;
      const modules = Object.values(report.modules);
      const count = modules.reduce((sum, entry) => sum + entry.count, 0);
      const bytes = modules.reduce((sum, entry) => sum + entry.bytes, 0);
      const code = space(report, 'code') + space(report, 'trusted') + space(report, 'code_large_object');
      const young = space(report, 'new');
      console.log(
        `${service.padEnd(10)} | ${variant.name.padEnd(width)} | ${pad(mb1(report.vmRss), 5)} | ${pad(mb1(report.anonymous), 4)} | ` +
          `${pad(mb1(report.file), 4)} | ${pad(mb1(report.heapTotal), 10)} | ${pad(mb1(report.heapUsed), 9)} | ` +
          `${pad(mb1(code), 13)} | ${pad(mb1(young), 5)} | ${pad(mb1(report.external), 8)} | ${pad(count, 7)} | ` +
          `${pad(mb1(bytes / 1048576), 13)}`,
      );
    }
  }
  const first = results[0];
  if (!first) return;
  console.log(`\nModules by package, ${first.variant.name} (count / source KB; the 12 heaviest)\n`);
  for (const service of SERVICES) {
    const report = first.reports.get(service);
    if (!report) continue;
    const heaviest = Object.entries(report.modules)
      .sort(([, x], [, y]) => y.bytes - x.bytes)
      .slice(0, 12)
      .map(([name, { count, bytes }]) => `${name} ${count}/${Math.round(bytes / 1024)}`);
    console.log(`${service}: ${heaviest.join(', ')}`);
  }
}

if (!values['skip-imports']) await measureImports();
await measureServices();
