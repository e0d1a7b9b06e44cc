/**
 * A soak of the customer-service system: N requests (default 10,000) from the official SDK client
 * through the supervisor, which delegates each over A2A on the BullMQ queues to a worker (orders:
 * get_order + estimate_delivery; inventory: check_stock), every agent calling a model that takes
 * 200 ms per call. Two configurations in the same run, each on a fresh Redis namespace (deleted
 * after): one process per worker (the baseline), then two processes each of orders and inventory.
 *
 *   pnpm --filter @switchboard/bench soak [-- --requests 10000 --concurrency 100 --warmup 100
 *                                           --timeout-ms 120000 --latency-ms 200]
 *
 * Per configuration it reports throughput (answered requests per second over the measured window),
 * p50/p99 latency of the answered requests, the peak memory of each service process (VmRSS from
 * /proc every 250 ms, or VmHWM at the end if higher; and the largest VmRSS of each tenth of the run,
 * which shows whether memory keeps growing), and requests lost or duplicated:
 *  - lost: a request (warm-up included) that did not end in a completed task whose answer has what
 *    the prompt asks for; grouped by kind (client timeout, task failed, error message, ...);
 *  - duplicated: from the task records in Redis, a request with more than one supervisor task, more
 *    than one task at a worker (the delegation derives the worker's contextId from the supervisor's,
 *    see `soak-audit.ts`), or a tool call that started twice in a task's history.
 * Where the time goes: CPU time of every process over the measured window (each service, the model
 * server, this process, Redis) and the machine's busy share. The model (`slow-model.ts`) runs behind
 * the OpenAI-compatible test server in its own process (`soak-model-server.ts`), shared by both
 * configurations; this process only runs the client. Exits 0 when no request was lost or duplicated
 * in any configuration, else 1 with the reason.
 */
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { type Child, startChild } from './hop-children.ts';
import { ProcessSampler } from './proc-stats.ts';
import { auditTasks } from './soak-audit.ts';
import { CallsReport } from './soak-ipc.ts';
import { customerClient, runLoad, SOAK_PROMPTS } from './soak-load.ts';
import { type ConfigurationResult, printReport, summarize } from './soak-report.ts';
import { type SoakConfiguration, startConfiguration } from './soak-system.ts';

const CONFIGURATIONS: readonly SoakConfiguration[] = [
  { name: '1 process per worker (baseline)', replicas: {} },
  { name: '2 x orders, 2 x inventory', replicas: { orders: 2, inventory: 2 } },
];
const WORKERS = ['orders', 'inventory', 'comms'];

const OPTIONS = {
  requests: 10_000,
  concurrency: 100,
  warmup: 100,
  'timeout-ms': 120_000,
  'latency-ms': 200,
} as const;
type OptionName = keyof typeof OPTIONS;

function readOptions(): Record<OptionName, number> {
  // `pnpm <script> -- --requests 300` hands the `--` on.
  const args = process.argv.slice(2).filter((arg, i) => !(i === 0 && arg === '--'));
  const names = Object.keys(OPTIONS) as OptionName[];
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args,
      options: Object.fromEntries(names.map((name) => [name, { type: 'string' }])),
    }).values;
  } catch (error) {
    console.error(`soak: ${error instanceof Error ? error.message : String(error)}`);
    console.error(`options: ${names.map((name) => `--${name} <n> (default ${OPTIONS[name]})`).join(', ')}`);
    process.exit(2);
  }
  const read = (name: OptionName) => {
    const raw = values[name];
    if (raw === undefined) return OPTIONS[name];
    const value = Number(raw);
    const least = name === 'warmup' || name === 'latency-ms' ? 0 : 1;
    if (!Number.isInteger(value) || value < least) {
      console.error(`soak: --${name} must be a whole number of at least ${least}; got "${String(raw)}".`);
      process.exit(2);
    }
    return value;
  };
  return Object.fromEntries(names.map((name) => [name, read(name)])) as Record<OptionName, number>;
}

async function modelCalls(model: Child): Promise<number> {
  model.process.send({ type: 'calls' });
  for (;;) {
    const [message] = (await once(model.process, 'message')) as [unknown];
    const report = CallsReport.safeParse(message);
    if (report.success) return report.data.calls;
  }
}

/** The Redis server's pid, when it runs on this machine (so its CPU and memory can be read). */
async function localRedisPid(redis: Redis): Promise<number | undefined> {
  const pid = Number(/process_id:(\d+)/.exec(await redis.info('server'))?.[1]);
  const command = await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '');
  return command.startsWith('redis') ? pid : undefined;
}

const options = readOptions();
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
const redisPid = await localRedisPid(redis);
const results: ConfigurationResult[] = [];
const failures: string[] = [];
const model = await startChild('soak-model-server.ts', ['--latency-ms', String(options['latency-ms'])]);
try {
  for (const configuration of CONFIGURATIONS) {
    console.error(`soak: starting "${configuration.name}"`);
    const running = await startConfiguration({ redis, redisUrl, configuration, modelUrl: model.ready.url });
    const ready = new Date();
    let cleaned: { spanBytes: number; keysDeleted: number } | undefined;
    try {
      const { supervisorUrl, token } = running.launched.access;
      const client = await customerClient(supervisorUrl, token);
      const load = { client, concurrency: options.concurrency, timeoutMs: options['timeout-ms'] };
      const warmup = await runLoad({ ...load, requests: options.warmup });
      const processes = new Map([...running.pids, ['model server', model.process.pid ?? 0]]);
      processes.set('bench client', process.pid);
      if (redisPid) processes.set('redis', redisPid);
      // The services live as long as the configuration; the others (Redis, the model server, this
      // process) longer, so only the services' VmHWM is theirs.
      const sampler = new ProcessSampler({ processes, highWaterMarks: new Set(running.pids.keys()) });
      const callsBefore = await modelCalls(model);
      await sampler.start();
      const measuredFrom = new Date();
      const measured = await runLoad({
        ...load,
        requests: options.requests,
        onProgress: (done, elapsedMs) =>
          console.error(
            `  ${done.length}/${options.requests} done, ${done.filter((outcome) => !outcome.ok).length} lost, ` +
              `${((done.length / elapsedMs) * 1000).toFixed(1)} req/s`,
          ),
      });
      const measuredTo = new Date();
      const { processes: usage, machineBusy } = await sampler.stop();
      const calls = (await modelCalls(model)) - callsBefore;
      // Stopped before the audit, so no task is still moving. Queue jobs are drained; a task whose HTTP
      // caller gave up (a client timeout) may be cut short and stay in its last state.
      const stopping = new Date();
      await running.stop();
      const stopped = new Date();
      const outcomes = [...warmup.outcomes, ...measured.outcomes];
      const audit = await auditTasks({
        redis,
        namespace: running.namespace,
        requests: outcomes.map((outcome) => ({ contextId: outcome.contextId, agent: outcome.prompt.agent })),
        workers: WORKERS,
      });
      cleaned = await running.clean();
      results.push({
        configuration,
        measured: measured.outcomes,
        warmup: warmup.outcomes,
        wallMs: measured.wallMs,
        audit,
        usage,
        machineBusy,
        modelCalls: calls,
        logs: running.logs,
        spanBytes: cleaned.spanBytes,
        phases: { ready, measuredFrom, measuredTo, stopping, stopped },
      });
    } finally {
      // Both are no-ops when the run got that far; after a failure they stop and delete everything.
      await running.stop();
      if (!cleaned) await running.clean();
    }
  }
} catch (error) {
  failures.push(
    `the soak did not finish: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
} finally {
  await model.stop();
  await redis.quit();
}

if (results.length > 0) {
  printReport(
    results,
    `Soak: ${options.requests} requests per configuration (after ${options.warmup} warm-up), ` +
      `${options.concurrency} in flight, alternating ${SOAK_PROMPTS.map((prompt) => `"${prompt.text}" (${prompt.agent})`).join(' and ')}; ` +
      `every model call takes ${options['latency-ms']} ms; client timeout ${options['timeout-ms']} ms. ` +
      'req/s and p50/p99 over the answered requests; lost and duplicated include the warm-up; ' +
      'peak MB per process (replicas separated by /)',
  );
}
for (const result of results) {
  const { lost, duplicated } = summarize(result);
  const name = result.configuration.name;
  if (lost > 0) failures.push(`${name}: ${lost} requests lost (see the kinds above)`);
  if (duplicated > 0) failures.push(`${name}: ${duplicated} requests duplicated (see the examples above)`);
  if (result.audit.unattributed > 0) {
    failures.push(
      `${name}: ${result.audit.unattributed} tasks could not be matched to a request, so the audit is incomplete`,
    );
  }
}
if (results.length < CONFIGURATIONS.length && failures.length === 0)
  failures.push('not every configuration ran');
console.log(
  failures.length === 0
    ? '\ntarget: no request lost or duplicated in any configuration -> met'
    : `\ntarget: no request lost or duplicated in any configuration -> MISSED:\n  ${failures.join('\n  ')}`,
);
process.exitCode = failures.length === 0 ? 0 : 1;
