/**
 * The server side of the a2a-hop bench, run as its own process by `a2a-hop.ts`:
 *
 *   node src/hop-server.ts <queue|http|raw> <key prefix> [--otlp <url>]
 *
 * - `queue`: the agent behind `A2aQueueServer` (BullMQ binding);
 * - `http`: the same agent behind `createA2aHttpApp` on a loopback port (JSON-RPC binding);
 * - `raw`: a BullMQ `Worker` with an inline no-op processor that answers each job with one reply frame
 *   (`ReplyWriter`, as the queue server writes it) or, for jobs that ask for it, one Redis PUBLISH.
 *
 * With `--otlp <url>` the process is traced as a deployment would be: `startTelemetry` runs before
 * anything else is loaded and exports OTLP/HTTP to that base URL, and the agent gets its tracer, so
 * the `process`, A2A SERVER, `invoke_agent` and `chat` spans are all recorded.
 *
 * Prints one line `ready <json>` ({ url, card }) once it serves, answers `cpu` on the IPC channel (when
 * started with one) with the CPU time it has used, and exits on SIGTERM (flushing its spans when
 * traced). Reads REDIS_URL (default redis://127.0.0.1:6379).
 */
import { parseArgs } from 'node:util';
import type { HostAgentOptions } from '@switchboard/host';
import type { Job } from 'bullmq';
import type { CpuReport } from './hop-ipc.ts';

/** What a job of the raw floor carries. */
export interface RawJob {
  requestId: string;
  replyTo: string;
  /** `stream` (default): a reply frame on the caller's inbox; `pubsub`: a PUBLISH on `replyTo`. */
  via?: 'stream' | 'pubsub';
}

/** The queue every mode uses, under the prefix it is given. */
const HOP_QUEUE = 'hop';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { otlp: { type: 'string' } } });
const [mode, prefix] = positionals;
if ((mode !== 'queue' && mode !== 'http' && mode !== 'raw') || !prefix) {
  console.error('usage: hop-server.ts <queue|http|raw> <key prefix> [--otlp <url>]');
  process.exit(2);
}
// Imported only when tracing, so an untraced server does not even load the SDK.
const telemetry = values.otlp
  ? await (await import('@switchboard/telemetry')).startTelemetry({
      serviceName: 'hop-server',
      serviceVersion: '0.0.0',
      environment: 'bench',
      instanceId: `hop-server-${process.pid}`,
      otlpEndpoint: values.otlp,
    })
  : undefined;
// Loaded after telemetry started, so instrumentation is in place first.
const { AgentCard } = await import('@a2a-js/sdk');
const { hostAgent } = await import('@switchboard/host');
const { ReplyWriter } = await import('@switchboard/a2a-bullmq');
const { createRedisConnection } = await import('@switchboard/redis');
const { defineAgent, silentLogger } = await import('@switchboard/agent');
const { ScriptedModel } = await import('@switchboard/agent/testing');
const { Worker } = await import('bullmq');
const { CpuQuery } = await import('./hop-ipc.ts');

const logger = silentLogger();
const redis = createRedisConnection({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
const address = { queue: HOP_QUEUE, prefix };

/** An agent with no tools whose model answers at once: what is left is transport and A2A handling. */
async function hopAgent(serve: Pick<HostAgentOptions, 'http' | 'queue'>): Promise<Served> {
  const agent = defineAgent({ name: 'hop', instructions: 'Answer "ok".' });
  const model = new ScriptedModel({ turns: [], whenExhausted: { text: 'ok' } });
  const host = await hostAgent({
    agent,
    model,
    ...serve,
    logger,
    ...(telemetry ? { tracer: telemetry.tracer } : {}),
  });
  await host.start();
  return { stop: () => host.close(), ready: { url: host.url, card: AgentCard.toJSON(host.card) } };
}

/** How the server stops, and what it announces once it serves. */
interface Served {
  stop: () => Promise<unknown>;
  ready: { url: string; card?: unknown };
}

let served: Served;
if (mode === 'queue') {
  served = await hopAgent({ queue: { redis, address } });
} else if (mode === 'http') {
  served = await hopAgent({ http: {} });
} else {
  // The same worker settings as A2aQueueServer: its own blocking connection, concurrency 16.
  const workerRedis = redis.duplicate({ maxRetriesPerRequest: null });
  const worker = new Worker<RawJob>(
    HOP_QUEUE,
    async (job: Job<RawJob>) => {
      const { requestId, replyTo, via = 'stream' } = job.data;
      if (via === 'pubsub') await redis.publish(replyTo, `${requestId} ok`);
      else await new ReplyWriter({ redis, replyTo, requestId }).end('ok');
    },
    {
      connection: workerRedis,
      prefix,
      concurrency: 16,
      lockDuration: 30_000,
      stalledInterval: 30_000,
      maxStalledCount: 2,
    },
  );
  worker.on('error', (error) => console.error('raw worker error:', error.message));
  await worker.waitUntilReady();
  served = {
    stop: async () => {
      await worker.close();
      workerRedis.disconnect();
    },
    ready: { url: `bullmq://queue/${HOP_QUEUE}?prefix=${encodeURIComponent(prefix)}` },
  };
}
const { stop, ready } = served;

// The bench asks before and after each phase, to charge this process's CPU time to the phase.
process.on('message', (message: unknown) => {
  if (!CpuQuery.safeParse(message).success) return;
  const { user, system } = process.cpuUsage();
  const report: CpuReport = { type: 'cpu', cpuMs: (user + system) / 1000 };
  process.send?.(report);
});
let stopping = false;
const shutdown = () => {
  if (stopping) return;
  stopping = true;
  setTimeout(() => process.exit(1), 10_000).unref();
  stop()
    .then(() => redis.quit())
    .then(() => telemetry?.shutdown())
    .then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('hop-server did not stop cleanly:', error);
        process.exit(1);
      },
    );
};
process.once('SIGTERM', shutdown);
// The bench went away without stopping this process (when it was started with an IPC channel).
process.once('disconnect', shutdown);
process.stdout.write(`ready ${JSON.stringify(ready)}\n`);
