/**
 * Round-trip latency and throughput of one A2A hop, for the same agent (no tools, a model that answers
 * at once) over:
 *  (a) the BullMQ binding: SDK Client + QueueTransportFactory → queue → A2aQueueServer → SDK handler →
 *      SwitchboardAgentExecutor → reply stream;
 *  (b) the SDK's JSON-RPC over HTTP: SDK Client → createA2aHttpApp → the same handler;
 *  (c) the floor with no A2A: Queue.add → Worker with a no-op processor → ReplyWriter → ReplyInbox,
 *      and (c') the same with the reply over Redis pub/sub.
 * The server side of each runs in its own child process (src/hop-server.ts), one process each side.
 * Every binding is warmed up, then measured in interleaved rounds (c, c', a, b, c, c', a, b, ...) at 1
 * call in flight and at 100 in flight, so a slower stretch of the machine falls on all of them alike;
 * a server not being measured sits idle.
 *
 *   pnpm --filter @switchboard/bench a2a-hop
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { AgentCard, Role, type SendMessageRequest, TaskState } from '@a2a-js/sdk';
import { type Client, ClientFactory, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { parseQueueUrl, QueueTransportFactory, ReplyInbox, textPart } from '@switchboard/a2a';
import { silentLogger } from '@switchboard/agent';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { RawJob } from './hop-server.js';

const WARMUP_SEQUENTIAL = 200;
const WARMUP_PARALLEL = 500;
/** Untimed calls at IN_FLIGHT before each loaded round. */
const REWARM_PARALLEL = 300;
const ROUNDS = 3;
/** Per round: sequential round trips, and calls at IN_FLIGHT at once. */
const SEQUENTIAL_CALLS = 400;
const PARALLEL_CALLS = 5_000;
const IN_FLIGHT = 100;
/** Each measured phase stops issuing calls after this long, whatever its count. */
const PHASE_BUDGET_MS = 20_000;
const CALL_TIMEOUT_MS = 10_000;
const TARGET_LATENCY_RATIO = 1.3;
const TARGET_THROUGHPUT_RATIO = 2;

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisHost = new URL(redisUrl).hostname;
if (!['127.0.0.1', 'localhost', '[::1]', '::1'].includes(redisHost)) {
  console.error(`a2a-hop measures loopback only; REDIS_URL points at ${redisHost}. Use a local Redis.`);
  process.exit(2);
}
const benchDir = fileURLToPath(new URL('..', import.meta.url));
const serverScript = fileURLToPath(new URL('./hop-server.ts', import.meta.url));
/** Every key and channel of this run starts with it; all are deleted at the end. */
const namespace = `bench-hop-${randomUUID().slice(0, 8)}`;
const logger = silentLogger();
const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
/** The job options QueueTransportFactory gives its queues, so (c) stores what (a) stores. */
const jobOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 500 },
  removeOnComplete: { age: 60, count: 1_000 },
  removeOnFail: { age: 24 * 3600, count: 10_000 },
};

type Call = () => Promise<void>;

interface Row {
  binding: string;
  inFlight: number;
  calls: number;
  errors: number;
  p50: number;
  p99: number;
  perSecond: number;
}

interface Ready {
  url: string;
  card?: unknown;
}

/** Starts hop-server.ts in one process (node with tsx as a loader) and waits for its ready line. */
async function startServer(mode: 'queue' | 'http' | 'raw', prefix: string) {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', serverScript, mode, prefix], {
    cwd: benchDir,
    env: { ...process.env, REDIS_URL: redisUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`hop-server ${mode} did not start within 30 s: ${output}`));
    }, 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = /^ready (.*)$/m.exec(output)?.[1];
      if (line === undefined) return;
      clearTimeout(timer);
      resolve(JSON.parse(line) as Ready);
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`hop-server ${mode} exited (${code}) before it was ready: ${output}`));
    });
  });
  const stop = async () => {
    child.kill('SIGTERM');
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(kill);
  };
  return { ready, stop };
}

interface Measured {
  latencies: number[];
  errors: number;
  wallMs: number;
}

/** Runs `calls` calls with `inFlight` at once; each round trip timed with performance.now(). */
async function measure(call: Call, calls: number, inFlight: number): Promise<Measured> {
  const latencies: number[] = [];
  let issued = 0;
  let errors = 0;
  let firstError: unknown;
  const start = performance.now();
  const deadline = start + PHASE_BUDGET_MS;
  const lane = async () => {
    while (issued < calls && performance.now() < deadline) {
      issued++;
      const began = performance.now();
      try {
        await call();
        latencies.push(performance.now() - began);
      } catch (error) {
        errors++;
        firstError ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  const wallMs = performance.now() - start;
  if (firstError) console.error(`  ${errors} calls failed; the first: ${String(firstError)}`);
  return { latencies, errors, wallMs };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? Number.NaN;
}

const rate = ({ latencies, wallMs }: Measured) => (latencies.length / wallMs) * 1000;

/** One table row from the rounds of a phase: latencies pooled, throughput of the median round. */
function row(binding: string, inFlight: number, runs: readonly Measured[]): Row {
  const sorted = runs.flatMap((run) => run.latencies).sort((x, y) => x - y);
  const rates = runs.map(rate).sort((x, y) => x - y);
  return {
    binding,
    inFlight,
    calls: sorted.length,
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    perSecond: rates[Math.floor(rates.length / 2)] ?? Number.NaN,
  };
}

/** A blocking SendMessage that starts a new task; the reply must be the completed task. */
function sendOnce(client: Client): Call {
  return async () => {
    const request: SendMessageRequest = {
      tenant: '',
      message: {
        messageId: randomUUID(),
        role: Role.ROLE_USER,
        parts: [textPart('ping')],
        contextId: '',
        taskId: '',
        metadata: {},
        extensions: [],
        referenceTaskIds: [],
      },
      configuration: undefined,
      metadata: {},
    };
    const result = await client.sendMessage(request, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
    if (!('status' in result) || result.status?.state !== TaskState.TASK_STATE_COMPLETED) {
      throw new Error('the reply is not a completed task');
    }
  };
}

/** A binding under test: how to make one call, and how to take its server and client down. */
interface Opened {
  bindings: { name: string; call: Call }[];
  close(): Promise<void>;
}

async function openQueueBinding(): Promise<Opened> {
  const server = await startServer('queue', `{${namespace}:a2a}`);
  const factory = new QueueTransportFactory({ redis, namespace, timeoutMs: CALL_TIMEOUT_MS, logger });
  const close = async () => {
    await factory.close();
    await server.stop();
  };
  try {
    const client = await new ClientFactory({ transports: [factory] }).createFromAgentCard(
      AgentCard.fromJSON(server.ready.card),
    );
    return { bindings: [{ name: '(a) A2A over BullMQ', call: sendOnce(client) }], close };
  } catch (error) {
    await close();
    throw error;
  }
}

async function openHttpBinding(): Promise<Opened> {
  const server = await startServer('http', `{${namespace}:http}`);
  try {
    const client = await new ClientFactory({
      transports: [new JsonRpcTransportFactory()],
    }).createFromAgentCard(AgentCard.fromJSON(server.ready.card));
    return { bindings: [{ name: '(b) A2A JSON-RPC over HTTP', call: sendOnce(client) }], close: server.stop };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

async function openRawFloor(): Promise<Opened> {
  const server = await startServer('raw', `{${namespace}:raw}`);
  const { queue: name, prefix } = parseQueueUrl(server.ready.url);
  const queue = new Queue<RawJob>(name, { connection: redis, prefix, defaultJobOptions: jobOptions });
  const inbox = new ReplyInbox({ redis, namespace, logger });
  const subscriber = redis.duplicate();
  const channel = `${namespace}:pubsub`;
  const waiting = new Map<string, () => void>();
  subscriber.on('message', (_channel: string, message: string) => {
    waiting.get(message.slice(0, message.indexOf(' ')))?.();
  });
  const close = async () => {
    await inbox.close();
    await queue.close();
    subscriber.disconnect();
    await server.stop();
  };
  try {
    await subscriber.subscribe(channel);
  } catch (error) {
    await close();
    throw error;
  }
  const viaStream: Call = async () => {
    const requestId = randomUUID();
    const subscription = inbox.open(requestId);
    try {
      await queue.add('raw', { requestId, replyTo: inbox.key }, { jobId: requestId });
      await subscription.next({ timeoutMs: CALL_TIMEOUT_MS });
    } finally {
      subscription.close();
    }
  };
  const viaPubSub: Call = async () => {
    const requestId = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const replied = new Promise<void>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no reply within ${CALL_TIMEOUT_MS} ms`)), CALL_TIMEOUT_MS);
      waiting.set(requestId, resolve);
    });
    try {
      await queue.add('raw', { requestId, replyTo: channel, via: 'pubsub' }, { jobId: requestId });
      await replied;
    } finally {
      clearTimeout(timer);
      waiting.delete(requestId);
    }
  };
  return {
    bindings: [
      { name: '(c) raw BullMQ, reply stream', call: viaStream },
      { name: "(c') raw BullMQ, pub/sub", call: viaPubSub },
    ],
    close,
  };
}

/** Warms every binding up, then measures them in interleaved rounds. */
async function measureAll(bindings: Opened['bindings']): Promise<Row[]> {
  for (const { call } of bindings) {
    await measure(call, WARMUP_SEQUENTIAL, 1);
    await measure(call, WARMUP_PARALLEL, IN_FLIGHT);
  }
  const runs = bindings.map(() => ({ sequential: [] as Measured[], loaded: [] as Measured[] }));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [i, { call }] of bindings.entries()) {
      runs[i]?.sequential.push(await measure(call, SEQUENTIAL_CALLS, 1));
      // Untimed: reopens the HTTP keep-alive connections that went idle (5 s) while the others ran.
      await measure(call, REWARM_PARALLEL, IN_FLIGHT);
      runs[i]?.loaded.push(await measure(call, PARALLEL_CALLS, IN_FLIGHT));
    }
    console.error(`  round ${round} of ${ROUNDS} done`);
  }
  return bindings.flatMap(({ name }, i) => {
    const { sequential = [], loaded = [] } = runs[i] ?? {};
    console.error(
      `  ${name}: msg/s by round at 1 in flight ${sequential.map((run) => rate(run).toFixed(0)).join(', ')}; ` +
        `at ${IN_FLIGHT} in flight ${loaded.map((run) => rate(run).toFixed(0)).join(', ')}`,
    );
    return [row(name, 1, sequential), row(name, IN_FLIGHT, loaded)];
  });
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
let rows: Row[] = [];
try {
  console.error(`a2a-hop: key prefix ${namespace}, Redis ${redisUrl}`);
  opened.push(await openRawFloor());
  opened.push(await openQueueBinding());
  opened.push(await openHttpBinding());
  rows = await measureAll(opened.flatMap((entry) => entry.bindings));
} finally {
  for (const entry of opened.reverse()) await entry.close();
  await deleteKeys();
  await redis.quit();
}

const pad = (value: string | number, width: number) => String(value).padStart(width);
const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
console.log(
  `One A2A hop, same agent (no tools, model answers at once), server in a child process; ` +
    `${ROUNDS} interleaved rounds of ${SEQUENTIAL_CALLS} calls at 1 in flight and ${PARALLEL_CALLS} at ` +
    `${IN_FLIGHT} in flight (p50/p99 over all calls, msg/s of the median round); after ` +
    `${WARMUP_SEQUENTIAL} + ${WARMUP_PARALLEL} warm-up calls\n`,
);
const width = Math.max(...rows.map((entry) => entry.binding.length));
console.log(`${'binding'.padEnd(width)} | in flight |  calls | p50 ms | p99 ms |  msg/s`);
for (const entry of rows) {
  console.log(
    `${entry.binding.padEnd(width)} | ${pad(entry.inFlight, 9)} | ${pad(entry.calls, 6)} | ${pad(fixed(entry.p50, 2), 6)} | ` +
      `${pad(fixed(entry.p99, 2), 6)} | ${pad(fixed(entry.perSecond, 0), 6)}`,
  );
}
const find = (prefix: string, inFlight: number) =>
  rows.find((entry) => entry.binding.startsWith(prefix) && entry.inFlight === inFlight);
const a1 = find('(a)', 1);
const c1 = find('(c)', 1);
const aN = find('(a)', IN_FLIGHT);
const bN = find('(b)', IN_FLIGHT);
const errors = rows.reduce((sum, entry) => sum + entry.errors, 0);
const latencyRatio = (a1?.p50 ?? Number.NaN) / (c1?.p50 ?? Number.NaN);
const throughputRatio = (aN?.perSecond ?? Number.NaN) / (bN?.perSecond ?? Number.NaN);
const complete = rows.every(
  (entry) => entry.calls === ROUNDS * (entry.inFlight === 1 ? SEQUENTIAL_CALLS : PARALLEL_CALLS),
);
const latencyMet = latencyRatio <= TARGET_LATENCY_RATIO && complete && errors === 0;
const throughputMet = throughputRatio >= TARGET_THROUGHPUT_RATIO && complete && errors === 0;
console.log(`\nfailed calls: ${errors}${complete ? '' : '; some phases ran out of time before their count'}`);
console.log(
  `A2A cost per hop at 1 in flight, (a) - (c): ${fixed((a1?.p50 ?? Number.NaN) - (c1?.p50 ?? Number.NaN), 2)} ms p50`,
);
console.log(
  `target: (a) p50 at 1 in flight within ${TARGET_LATENCY_RATIO}x of (c): ${fixed(latencyRatio, 2)}x -> ${latencyMet ? 'met' : 'MISSED'}`,
);
console.log(
  `target: (a) throughput at ${IN_FLIGHT} in flight at least ${TARGET_THROUGHPUT_RATIO}x (b): ${fixed(throughputRatio, 2)}x -> ${throughputMet ? 'met' : 'MISSED'}`,
);
process.exitCode = latencyMet && throughputMet ? 0 : 1;
