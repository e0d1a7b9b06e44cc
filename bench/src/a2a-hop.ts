/**
 * Round-trip latency and throughput of one A2A hop, for the same agent (no tools, a model that answers
 * at once) over:
 *  (a) the BullMQ binding: SDK Client + QueueTransportFactory → queue → A2aQueueServer → SDK handler →
 *      SwitchboardAgentExecutor → reply stream; measured four ways:
 *      - with the client in this process, as (b) and (c) are;
 *      - with the client in its own process (src/hop-client.ts) and its own server, untraced: the
 *        baseline of the next two;
 *      - traced: the same, with an OpenTelemetry SDK registered in both processes (startTelemetry, as
 *        a deployment starts it), exporting OTLP/HTTP to a loopback receiver in one more process
 *        (src/otlp-sink.ts, which only takes the bodies in while the bench measures);
 *      - the same with the sampler off (OTEL_TRACES_SAMPLER=always_off): context propagation and the
 *        tracing API calls without any span recorded, which splits tracing's cost in two.
 *      This process never registers an SDK, so the untraced bindings pay nothing for tracing;
 *  (b) the SDK's JSON-RPC over HTTP: SDK Client → createA2aHttpApp → the same handler;
 *  (c) the floor with no A2A: Queue.add → Worker with a no-op processor → ReplyWriter → ReplyInbox,
 *      and (c') the same with the reply over Redis pub/sub.
 * The server side of each runs in its own child process (src/hop-server.ts), one process each side.
 * Every binding is warmed up, then measured in interleaved rounds (c, c', a, …, b, then b, …, a, c',
 * c, …) at 1 call in flight and at 100 in flight, so a slower stretch of the machine, or a place in
 * the order, falls on all of them alike; a server not being measured sits idle. The cost of tracing is
 * taken round by round, against the untraced client process measured in the same round; the spans
 * the sink received are checked: the six of a call, each once, in one trace per call.
 *
 * Redis CPU time is charged to each phase too (its main thread's, from `INFO cpu`): every binding's
 * commands run on that one thread, so its busy share at 100 in flight says whether Redis is what
 * bounds a binding's throughput. Without REDIS_URL the bench starts a redis-server of its own
 * (`redis-server` on the PATH), so those figures count nothing else.
 *
 *   pnpm --filter @switchboard/bench a2a-hop [--rounds <even number, default 4>]
 *
 * More rounds when they are too noisy to decide: the figures are the medians of the rounds.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { silentLogger } from '@switchboard/agent';
import { createRedisConnection } from '@switchboard/redis';
import {
  BINDING,
  type Binding,
  type HopContext,
  type Opened,
  openClientProcessBinding,
  openHttpBinding,
  openQueueBinding,
  openRawFloor,
} from './hop-bindings.ts';
import { ask, startChild } from './hop-children.ts';
import { SinkCount } from './hop-ipc.ts';
import type { Measured } from './hop-measure.ts';
import { startPrivateRedis } from './private-redis.ts';

const WARMUP_SEQUENTIAL = 200;
const WARMUP_PARALLEL = 500;
/** Untimed calls at IN_FLIGHT before each loaded round. */
const REWARM_PARALLEL = 300;
/** Default of `--rounds`. */
const DEFAULT_ROUNDS = 4;
/** Per round: sequential round trips, and calls at IN_FLIGHT at once. */
const SEQUENTIAL_CALLS = 300;
const PARALLEL_CALLS = 3_000;
const IN_FLIGHT = 100;
const TARGET_LATENCY_RATIO = 1.3;
const TARGET_THROUGHPUT_RATIO = 2;
/** Tracing may cost at most this share of (a)'s throughput at IN_FLIGHT. */
const TARGET_TRACING_COST = 0.1;
/**
 * The spans of one traced call, as the OTLP sink names them (`<service> <kind> <name>`): each must
 * arrive once per call, and only the first is a root (the server's continue the client's trace).
 */
const EXPECTED_SPANS = [
  'hop-client CLIENT SendMessage',
  'hop-client PRODUCER send hop',
  'hop-server CONSUMER process hop',
  'hop-server SERVER SendMessage',
  'hop-server INTERNAL invoke_agent hop',
  'hop-server CLIENT chat scripted',
];

const ROUNDS = roundsOption();

/** `--rounds`: even, so that every binding runs as often in the forward order as in the reverse. */
function roundsOption(): number {
  const usage = 'usage: a2a-hop.ts [--rounds <even number from 2 to 100, default 4>]';
  let rounds: string | undefined;
  try {
    rounds = parseArgs({ options: { rounds: { type: 'string' } } }).values.rounds;
  } catch (error) {
    console.error(`a2a-hop: ${error instanceof Error ? error.message : String(error)}\n${usage}`);
    process.exit(2);
  }
  if (rounds === undefined) return DEFAULT_ROUNDS;
  const value = /^\d+$/.test(rounds) ? Number(rounds) : Number.NaN;
  if (!(value >= 2 && value <= 100 && value % 2 === 0)) {
    console.error(
      `a2a-hop: --rounds must be an even whole number from 2 to 100, so that every binding runs as often ` +
        `in the forward order as in the reverse (got "${rounds}").\n${usage}`,
    );
    process.exit(2);
  }
  return value;
}

/**
 * REDIS_URL when given (loopback only), else a redis-server of the bench's own, so that the Redis CPU
 * time charged to each phase is the bench's traffic alone.
 */
const privateRedis = process.env.REDIS_URL ? undefined : await startPrivateRedis();
const redisUrl = process.env.REDIS_URL ?? privateRedis?.url ?? 'redis://127.0.0.1:6379';
const redisHost = new URL(redisUrl).hostname;
if (!['127.0.0.1', 'localhost', '[::1]', '::1'].includes(redisHost)) {
  console.error(`a2a-hop measures loopback only; REDIS_URL points at ${redisHost}. Use a local Redis.`);
  process.exit(2);
}
/** Every key and channel of this run starts with it; all are deleted at the end. */
const namespace = `bench-hop-${randomUUID().slice(0, 8)}`;
const redis = createRedisConnection({ url: redisUrl });
const context: HopContext = { redisUrl, redis, namespace, logger: silentLogger() };

/** One measured phase, with the CPU time its server process and Redis's main thread took meanwhile. */
interface Phase extends Measured {
  serverCpuMs: number;
  redisCpuMs: number;
}

/**
 * CPU time of Redis's main thread so far (`INFO cpu`, Redis 6+; the whole server's on older ones), in
 * ms: the one thread every command of every binding runs on.
 */
async function redisCpuMs(): Promise<number> {
  const info = await redis.info('cpu');
  const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? Number.NaN);
  const main = field('used_cpu_user_main_thread') + field('used_cpu_sys_main_thread');
  return (Number.isFinite(main) ? main : field('used_cpu_user') + field('used_cpu_sys')) * 1000;
}

interface Row {
  binding: string;
  inFlight: number;
  calls: number;
  errors: number;
  p50: number;
  p99: number;
  perSecond: number;
  clientCpuUs: number;
  serverCpuUs: number;
  redisCpuUs: number;
  /** Share of the phases' wall time the server process was on a CPU (the median of the rounds). */
  serverBusy: number;
  /** Share of the phases' wall time Redis's main thread was busy (the median of the rounds). */
  redisBusy: number;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? Number.NaN;
}

const rate = ({ latencies, wallMs }: Measured) => (latencies.length / wallMs) * 1000;
const median = (values: readonly number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = sorted.length / 2;
  const upper = sorted[Math.floor(middle)] ?? Number.NaN;
  return Number.isInteger(middle) ? ((sorted[middle - 1] ?? Number.NaN) + upper) / 2 : upper;
};

/** One table row from the rounds of a phase: latencies pooled, the median of the rounds' throughputs. */
function row(binding: string, inFlight: number, runs: readonly Phase[]): Row {
  const sorted = runs.flatMap((run) => run.latencies).sort((x, y) => x - y);
  const calls = runs.reduce((sum, run) => sum + run.latencies.length + run.errors, 0);
  return {
    binding,
    inFlight,
    calls: sorted.length,
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    perSecond: median(runs.map(rate)),
    clientCpuUs: (runs.reduce((sum, run) => sum + run.cpuMs, 0) / calls) * 1000,
    serverCpuUs: (runs.reduce((sum, run) => sum + run.serverCpuMs, 0) / calls) * 1000,
    redisCpuUs: (runs.reduce((sum, run) => sum + run.redisCpuMs, 0) / calls) * 1000,
    serverBusy: median(runs.map((run) => run.serverCpuMs / run.wallMs)),
    redisBusy: median(runs.map((run) => run.redisCpuMs / run.wallMs)),
  };
}

/** Runs one phase and charges its server's CPU time to it; reports failures. */
async function phase(binding: Binding, calls: number, inFlight: number): Promise<Phase> {
  const before = await binding.serverCpuMs();
  const redisBefore = await redisCpuMs();
  const measured = await binding.run(calls, inFlight);
  const redisSpent = (await redisCpuMs()) - redisBefore;
  const serverCpuMs = (await binding.serverCpuMs()) - before;
  if (measured.firstError) {
    console.error(`  ${binding.name}: ${measured.errors} calls failed; the first: ${measured.firstError}`);
  }
  return { ...measured, serverCpuMs, redisCpuMs: redisSpent };
}

interface Runs {
  sequential: Phase[];
  loaded: Phase[];
}

/** Warms every binding up, then measures them in interleaved rounds, every other round in reverse. */
async function measureAll(bindings: readonly Binding[]): Promise<Map<string, Runs>> {
  for (const binding of bindings) {
    await phase(binding, WARMUP_SEQUENTIAL, 1);
    await phase(binding, WARMUP_PARALLEL, IN_FLIGHT);
  }
  const runs = new Map(bindings.map(({ name }) => [name, { sequential: [], loaded: [] } as Runs]));
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 === 1 ? bindings : [...bindings].reverse();
    for (const binding of order) {
      runs.get(binding.name)?.sequential.push(await phase(binding, SEQUENTIAL_CALLS, 1));
      // Untimed: reopens the HTTP keep-alive connections that went idle (5 s) while the others ran.
      await phase(binding, REWARM_PARALLEL, IN_FLIGHT);
      runs.get(binding.name)?.loaded.push(await phase(binding, PARALLEL_CALLS, IN_FLIGHT));
    }
    console.error(`  round ${round} of ${ROUNDS} done`);
  }
  for (const [name, { sequential, loaded }] of runs) {
    console.error(
      `  ${name}: msg/s by round at 1 in flight ${sequential.map((run) => rate(run).toFixed(0)).join(', ')}; ` +
        `at ${IN_FLIGHT} in flight ${loaded.map((run) => rate(run).toFixed(0)).join(', ')}`,
    );
  }
  return runs;
}

/** Deletes every key of this run (bounded: at most 10,000 SCAN pages or 30 s). */
async function deleteKeys(): Promise<void> {
  const deadline = performance.now() + 30_000;
  for (const pattern of [`{${namespace}:*`, `${namespace}:*`]) {
    let cursor = '0';
    for (let page = 0; page < 10_000 && performance.now() < deadline; page++) {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1_000);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
      if (cursor === '0') break;
    }
  }
}

const opened: Opened[] = [];
let runs = new Map<string, Runs>();
let tracedCalls = 0;
let received: SinkCount | undefined;
let sinkStartCpuMs = 0;
try {
  console.error(`a2a-hop: ${ROUNDS} rounds, key prefix ${namespace}, Redis ${redisUrl}`);
  const sink = await startChild('otlp-sink.ts', []);
  try {
    sinkStartCpuMs = (await ask(sink.process, { type: 'count' }, SinkCount)).cpuMs;
    let traced: Awaited<ReturnType<typeof openClientProcessBinding>> | undefined;
    try {
      opened.push(await openRawFloor(context));
      opened.push(await openQueueBinding(context));
      opened.push(await openClientProcessBinding(context, BINDING.queueProcess, 'a2a-process', {}));
      traced = await openClientProcessBinding(context, BINDING.queueTraced, 'a2a-traced', {
        otlp: sink.ready.url,
        sampled: true,
      });
      opened.push(traced);
      opened.push(
        await openClientProcessBinding(context, BINDING.queueUnsampled, 'a2a-unsampled', {
          otlp: sink.ready.url,
          sampled: false,
        }),
      );
      opened.push(await openHttpBinding(context));
      runs = await measureAll(opened.flatMap((entry) => entry.bindings));
    } finally {
      // Closing the traced processes flushes their spans, so the sink has them all once they exit.
      for (const entry of opened.reverse()) await entry.close();
    }
    tracedCalls = traced?.calls() ?? 0;
    // The sink parses what it kept only now: allow it time.
    received = await ask(sink.process, { type: 'count' }, SinkCount, () => true, 120_000);
  } finally {
    await sink.stop();
  }
} finally {
  await deleteKeys();
  await redis.quit();
  await privateRedis?.stop();
}

const rows = [...runs].flatMap(([name, { sequential, loaded }]) => [
  row(name, 1, sequential),
  row(name, IN_FLIGHT, loaded),
]);
const pad = (value: string | number, width: number) => String(value).padStart(width);
const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
console.log(
  `One A2A hop, same agent (no tools, model answers at once), server in a child process; ` +
    `${ROUNDS} interleaved rounds of ${SEQUENTIAL_CALLS} calls at 1 in flight and ${PARALLEL_CALLS} at ` +
    `${IN_FLIGHT} in flight (p50/p99 over all calls, msg/s the median of the rounds, CPU time per call of the ` +
    `client and the server process and of Redis's main thread, and the share of the wall time the server process ` +
    `and Redis's main thread were busy: one event loop each, so near 100% is what bounds throughput); Redis ${privateRedis ? 'of its own' : `at ${redisUrl}, whose other clients count too`}; after ${WARMUP_SEQUENTIAL} + ${WARMUP_PARALLEL} warm-up calls\n`,
);
const width = Math.max(...rows.map((entry) => entry.binding.length));
console.log(
  `${'binding'.padEnd(width)} | in flight |  calls | p50 ms | p99 ms |  msg/s | client CPU us | server CPU us | Redis CPU us | server busy | Redis busy`,
);
for (const entry of rows) {
  console.log(
    `${entry.binding.padEnd(width)} | ${pad(entry.inFlight, 9)} | ${pad(entry.calls, 6)} | ${pad(fixed(entry.p50, 2), 6)} | ` +
      `${pad(fixed(entry.p99, 2), 6)} | ${pad(fixed(entry.perSecond, 0), 6)} | ${pad(fixed(entry.clientCpuUs, 0), 13)} | ` +
      `${pad(fixed(entry.serverCpuUs, 0), 13)} | ${pad(fixed(entry.redisCpuUs, 0), 12)} | ` +
      `${pad(`${fixed(entry.serverBusy * 100, 0)}%`, 11)} | ${pad(`${fixed(entry.redisBusy * 100, 0)}%`, 10)}`,
  );
}
const find = (binding: string, inFlight: number) =>
  rows.find((entry) => entry.binding === binding && entry.inFlight === inFlight);
const a1 = find(BINDING.queue, 1);
const c1 = find(BINDING.rawStream, 1);
const aN = find(BINDING.queue, IN_FLIGHT);
const bN = find(BINDING.http, IN_FLIGHT);
const errors = rows.reduce((sum, entry) => sum + entry.errors, 0);
const latencyRatio = (a1?.p50 ?? Number.NaN) / (c1?.p50 ?? Number.NaN);
const throughputRatio = (aN?.perSecond ?? Number.NaN) / (bN?.perSecond ?? Number.NaN);
const complete = rows.every(
  (entry) => entry.calls === ROUNDS * (entry.inFlight === 1 ? SEQUENTIAL_CALLS : PARALLEL_CALLS),
);
const latencyMet = latencyRatio <= TARGET_LATENCY_RATIO && complete && errors === 0;
const throughputMet = throughputRatio >= TARGET_THROUGHPUT_RATIO && complete && errors === 0;

// Tracing's cost, round by round: against the untraced client process measured in the same round.
const loadedRates = (binding: string) => (runs.get(binding)?.loaded ?? []).map(rate);
const untracedRates = loadedRates(BINDING.queueProcess);
const costsOf = (binding: string) =>
  loadedRates(binding).map((value, i) => 1 - value / (untracedRates[i] ?? Number.NaN));
const costs = costsOf(BINDING.queueTraced);
const unsampledCosts = costsOf(BINDING.queueUnsampled);
const tracingCost = median(costs);
const unsampledCost = median(unsampledCosts);
const perCall = (count: number | undefined) => (count ?? Number.NaN) / tracedCalls;
const onceEach = (count: number | undefined) => Math.abs(perCall(count) - 1) <= 0.01;
const spansPerCall = perCall(received?.spans);
// Every expected span once per call, nothing else, one trace per call, no body refused.
const fullyTraced =
  received?.rejected === 0 &&
  onceEach(received.roots) &&
  Math.abs(spansPerCall - EXPECTED_SPANS.length) <= 0.01 * EXPECTED_SPANS.length &&
  EXPECTED_SPANS.every((name) => onceEach(received?.byName[name]));
const tracingMet = tracingCost <= TARGET_TRACING_COST && complete && errors === 0 && fullyTraced;

console.log(`\nfailed calls: ${errors}${complete ? '' : '; some phases ran out of time before their count'}`);
console.log(
  `A2A cost per hop at 1 in flight, (a) - (c): ${fixed((a1?.p50 ?? Number.NaN) - (c1?.p50 ?? Number.NaN), 2)} ms p50`,
);
if (received) {
  console.log(
    `spans received by the OTLP sink for the ${tracedCalls} traced calls (warm-up included): ` +
      `${received.spans} in ${received.requests} requests (${fixed(received.bytes / 1e6, 1)} MB, ` +
      `${received.rejected} refused): ${fixed(spansPerCall, 2)} per call (expected ${EXPECTED_SPANS.length}), ` +
      `${fixed(perCall(received.roots), 2)} traces per call; the sink's CPU over the run ` +
      `${fixed(((received.cpuMs - sinkStartCpuMs) / tracedCalls) * 1000, 0)} us per traced call`,
  );
  for (const [name, count] of Object.entries(received.byName).sort(([x], [y]) => x.localeCompare(y))) {
    console.log(`  ${fixed(perCall(count), 2)} per call  ${name}`);
  }
}
const percents = (values: readonly number[]) => values.map((cost) => `${fixed(cost * 100, 1)}%`).join(', ');
console.log(
  `throughput lost at ${IN_FLIGHT} in flight against the untraced client process, by round: traced ` +
    `${percents(costs)}; SDK on, sampler off ${percents(unsampledCosts)}`,
);
const cpuPerCall = (binding: string) => {
  const entry = find(binding, IN_FLIGHT);
  return (entry?.clientCpuUs ?? Number.NaN) + (entry?.serverCpuUs ?? Number.NaN);
};
const untracedCpu = cpuPerCall(BINDING.queueProcess);
const unsampledCpu = cpuPerCall(BINDING.queueUnsampled);
console.log(
  `where it goes, in CPU time per call at ${IN_FLIGHT} in flight (client + server process): untraced ` +
    `${fixed(untracedCpu, 0)} us; SDK on, sampler off +${fixed(unsampledCpu - untracedCpu, 0)} us (context ` +
    `propagation: AsyncLocalStorage, W3C inject/extract, the tracing API calls); traced ` +
    `+${fixed(cpuPerCall(BINDING.queueTraced) - unsampledCpu, 0)} us more (recording and exporting ` +
    `${EXPECTED_SPANS.length} spans); in throughput (medians of the rounds) ${fixed(unsampledCost * 100, 1)}% ` +
    `and ${fixed((tracingCost - unsampledCost) * 100, 1)}%`,
);
console.log(
  `target: (a) p50 at 1 in flight within ${TARGET_LATENCY_RATIO}x of (c): ${fixed(latencyRatio, 2)}x -> ${latencyMet ? 'met' : 'MISSED'}`,
);
console.log(
  `target: (a) throughput at ${IN_FLIGHT} in flight at least ${TARGET_THROUGHPUT_RATIO}x (b): ${fixed(throughputRatio, 2)}x -> ${throughputMet ? 'met' : 'MISSED'}`,
);
console.log(
  `target: tracing costs at most ${TARGET_TRACING_COST * 100}% of (a)'s throughput at ${IN_FLIGHT} in flight: ` +
    `${fixed(tracingCost * 100, 1)}% -> ${tracingMet ? 'met' : 'MISSED'}` +
    (fullyTraced ? '' : ' (the traced calls did not all export the expected spans: see above)'),
);
process.exitCode = latencyMet && throughputMet && tracingMet ? 0 : 1;
