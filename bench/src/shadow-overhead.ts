/**
 * What running a shadow costs the live path: the same agent (a read tool, a scripted model that
 * answers at once) served over HTTP in three configurations, each a process of its own
 * (src/shadow-server.ts), measured in the same run:
 *  - `off`: no shadow (the baseline);
 *  - `on`: a shadow in the service's process, as `<AGENT>_SHADOW_*` runs one: every request copied
 *    (share 1) and its copy run beside the live traffic;
 *  - `tap`: the copies taken by a shadow worker in a process of its own.
 * Each is warmed up, then measured at IN_FLIGHT calls at once in interleaved rounds (every other round
 * in reverse order). The live p50 and p99 are compared with `off`; the CPU per request of the service
 * process, and of the shadow worker (once it has run every copy), say what the shadow costs.
 *
 *   pnpm --filter @switchboard/bench shadow-overhead [--rounds <even number, default 2>] [--calls <per round, default 2000>] [--share <0 to 1, default 1>]
 *
 * It starts its own redis-server (it must be on the PATH), so nothing else's traffic is in it.
 */
import { parseArgs } from 'node:util';
import { ClientFactory, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { z } from 'zod';
import { ask, type Child, serverCpu, startChild } from './hop-children.ts';
import { type Measured, measure, sendOnce } from './hop-measure.ts';
import { startPrivateRedis } from './private-redis.ts';

const IN_FLIGHT = 100;
const WARMUP_CALLS = 500;
const TARGET = 0.05;

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '2' },
    calls: { type: 'string', default: '2000' },
    share: { type: 'string', default: '1' },
  },
});
const ROUNDS = Number(values.rounds);
const CALLS = Number(values.calls);
const SHARE = Number(values.share);
if (
  !Number.isInteger(ROUNDS) ||
  ROUNDS < 2 ||
  ROUNDS % 2 !== 0 ||
  !Number.isInteger(CALLS) ||
  CALLS < 100 ||
  !(SHARE > 0 && SHARE <= 1)
) {
  console.error(
    'usage: shadow-overhead.ts [--rounds <even number ≥ 2, default 2>] [--calls <≥ 100, default 2000>] [--share <0 to 1, default 1>]',
  );
  process.exit(2);
}

const ShadowState = z.object({
  type: z.literal('shadow'),
  handled: z.number(),
  outbox: z.object({ dropped: z.number(), failed: z.number(), waiting: z.number() }).optional(),
});
const shadowState = (child: Child) => ask(child.process, { type: 'shadow' } as never, ShadowState);

interface Config {
  name: string;
  server: Child;
  /** The process that runs the copies, when it is not the server. */
  worker?: Child;
  call: () => Promise<void>;
  phases: (Measured & { serverCpuMs: number })[];
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? Number.NaN;
}

/** Waits (60 s at most) until each shadow has run what it was given: its count stops moving for 2 s. */
async function drained(configs: readonly Config[]): Promise<void> {
  for (const config of configs.filter((c) => c.name !== 'off')) {
    const runner = config.worker ?? config.server;
    let last = -1;
    let still = 0;
    for (const deadline = Date.now() + 60_000; Date.now() < deadline && still < 10; ) {
      const { handled } = await shadowState(runner);
      still = handled === last ? still + 1 : 0;
      last = handled;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

async function phase(config: Config, calls: number) {
  const cpu = serverCpu(config.server);
  const before = await cpu();
  const measured = await measure(config.call, calls, IN_FLIGHT);
  const serverCpuMs = (await cpu()) - before;
  if (measured.firstError)
    console.error(`  ${config.name}: ${measured.errors} failed; first: ${measured.firstError}`);
  return { ...measured, serverCpuMs };
}

const redis = await startPrivateRedis();
const children: Child[] = [];
try {
  const env = { REDIS_URL: redis.url };
  const start = async (mode: string, prefix: string) => {
    const child = await startChild('shadow-server.ts', [mode, prefix, String(SHARE)], env);
    children.push(child);
    return child;
  };
  const configOf = async (name: string, server: Child, worker?: Child): Promise<Config> => {
    const client = await new ClientFactory({ transports: [new JsonRpcTransportFactory()] }).createFromUrl(
      server.ready.url,
    );
    return { name, server, ...(worker ? { worker } : {}), call: sendOnce(client), phases: [] };
  };
  const configs = [
    await configOf('off', await start('off', '{bench-shadow-off}')),
    await configOf('on', await start('on', '{bench-shadow-on}')),
    await configOf(
      'tap',
      await start('tap', '{bench-shadow-tap}'),
      await start('worker', '{bench-shadow-tap}'),
    ),
  ];
  for (const config of configs) await phase(config, WARMUP_CALLS);
  // The warm-up's copies run before anything is measured.
  await drained(configs);
  const workerCpuBefore = new Map<string, number>();
  for (const config of configs) {
    const runner = config.worker ?? config.server;
    workerCpuBefore.set(config.name, await serverCpu(runner)());
  }
  const handledBefore = new Map<string, number>();
  for (const config of configs)
    handledBefore.set(config.name, (await shadowState(config.worker ?? config.server)).handled);
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 === 1 ? configs : [...configs].reverse();
    for (const config of order) config.phases.push(await phase(config, CALLS));
    console.error(`  round ${round} of ${ROUNDS} done`);
  }
  // Every copy of the measured calls run before the shadow's CPU is read.
  await drained(configs);

  const rows = await Promise.all(
    configs.map(async (config) => {
      const sorted = config.phases.flatMap((p) => p.latencies).sort((a, b) => a - b);
      const calls = config.phases.reduce((sum, p) => sum + p.latencies.length + p.errors, 0);
      const errors = config.phases.reduce((sum, p) => sum + p.errors, 0);
      const serverCpuUs = (config.phases.reduce((sum, p) => sum + p.serverCpuMs, 0) / calls) * 1000;
      const state = await shadowState(config.worker ?? config.server);
      const tapState = config.worker ? await shadowState(config.server) : state;
      const runs = state.handled - (handledBefore.get(config.name) ?? 0);
      const workerCpuUs = config.worker
        ? (((await serverCpu(config.worker)()) - (workerCpuBefore.get(config.name) ?? 0)) /
            Math.max(1, runs)) *
          1000
        : undefined;
      return {
        name: config.name,
        calls,
        errors,
        p50: percentile(sorted, 0.5),
        p99: percentile(sorted, 0.99),
        serverCpuUs,
        workerCpuUs,
        runs: config.name === 'off' ? undefined : runs,
        dropped: tapState.outbox?.dropped,
      };
    }),
  );
  const base = rows[0];
  const vs = (value: number, of: number | undefined) =>
    of ? `${value >= of ? '+' : ''}${(((value - of) / of) * 100).toFixed(1)}%` : '';
  console.log(
    `Shadow overhead: ${ROUNDS} rounds of ${CALLS} calls at ${IN_FLIGHT} in flight per configuration, shadow share ${SHARE}, one agent turn with a read tool, scripted model (${new Date().toISOString()})`,
  );
  console.log(
    'config | calls | errors | p50 ms | p50 vs off | p99 ms | p99 vs off | service CPU us/req | shadow worker CPU us/copy | copies run | dropped',
  );
  for (const row of rows) {
    console.log(
      [
        row.name,
        row.calls,
        row.errors,
        row.p50.toFixed(1),
        row.name === 'off' ? '' : vs(row.p50, base?.p50),
        row.p99.toFixed(1),
        row.name === 'off' ? '' : vs(row.p99, base?.p99),
        row.serverCpuUs.toFixed(0),
        row.workerCpuUs === undefined ? '' : row.workerCpuUs.toFixed(0),
        row.runs ?? '',
        row.dropped ?? '',
      ].join(' | '),
    );
  }
  const on = rows.find((row) => row.name === 'on');
  const tap = rows.find((row) => row.name === 'tap');
  if (base && on && tap) {
    console.log(
      `shadow CPU: in the service process ${(on.serverCpuUs - base.serverCpuUs).toFixed(0)} us per request (on − off, copy and run); ` +
        `with its own worker, ${(tap.serverCpuUs - base.serverCpuUs).toFixed(0)} us per request in the service (tap − off, the copy) and ${tap.workerCpuUs?.toFixed(0)} us per copy in the worker`,
    );
  }
  const within = (row: (typeof rows)[number] | undefined) =>
    row && base && row.p50 <= base.p50 * (1 + TARGET) && row.p99 <= base.p99 * (1 + TARGET);
  for (const row of rows.slice(1)) {
    console.log(
      `target (${row.name}): live p50 and p99 within ${TARGET * 100}% of off: ${within(row) ? 'met' : 'NOT met'}`,
    );
  }
} finally {
  for (const child of children.reverse()) await child.stop().catch(() => {});
  await redis.stop();
}
