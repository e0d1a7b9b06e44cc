/**
 * A queue worker as its own process, for the drills: `node agent-worker-process.ts` with
 * REDIS_URL (or REDIS_CLUSTER_NODES), PREFIX, QUEUE, WORKER (a name), LOOKUP_MS, CONCURRENCY, LOCK_MS and GRACE_MS.
 * Prints "ready" when it consumes; on SIGTERM, or when the process that started it over an IPC channel
 * goes away, drains within GRACE_MS, prints "drained <bool>" and exits.
 */
import { DefaultRequestHandler } from '@a2a-js/sdk/server';
import { A2aQueueServer, BULLMQ_BINDING, queueUrl } from '@switchboard/a2a-bullmq';
import { silentLogger } from '@switchboard/agent';
import { buildAgentCard, deduplicateMessages, SwitchboardAgentExecutor } from '../../src/index.ts';
import { RedisIntentStore, RedisRunStateStore, RedisTaskStore } from '../../src/redis.ts';
import { listenForCancels } from '../../src/tasks/cancel-listener.ts';
import { testRedis } from './redis.ts';
import { createShopAgent } from './shop-agent.ts';

const env = (name: string, fallback?: string) => {
  const value = process.env[name] ?? fallback;
  if (value === undefined) throw new Error(`${name} is required`);
  return value;
};

const redis = testRedis();
const prefix = env('PREFIX');
const address = { queue: env('QUEUE'), prefix };
const worker = env('WORKER');
const { agent, model } = createShopAgent({
  redis,
  prefix,
  worker,
  lookupMs: Number(env('LOOKUP_MS', '500')),
});
const card = buildAgentCard({
  agent,
  interfaces: [{ url: queueUrl(address), protocolBinding: BULLMQ_BINDING }],
});
const logger = silentLogger();
const executor = new SwitchboardAgentExecutor({
  agent,
  model,
  runState: new RedisRunStateStore({ redis, prefix }),
  intents: new RedisIntentStore({ redis, prefix }),
  logger,
});
const handler = new DefaultRequestHandler(card, new RedisTaskStore({ redis, prefix }), executor);
const lockMs = Number(env('LOCK_MS', '30000'));
const server = new A2aQueueServer({
  requestHandler: deduplicateMessages({ handler, redis, prefix, logger }),
  card,
  address,
  redis,
  concurrency: Number(env('CONCURRENCY', '4')),
  lockDurationMs: lockMs,
  stalledIntervalMs: Math.max(500, Math.floor(lockMs / 2)),
  logger,
});
const cancels = await listenForCancels({ redis, prefix, executor, logger });
await server.start();
process.stdout.write('ready\n');

const graceMs = Number(env('GRACE_MS', '10000'));
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  // The grace, then a little for Redis; a drain that hangs past that must not keep the process.
  setTimeout(() => process.exit(1), graceMs + 10_000).unref();
  const { drained } = await server.close({ graceMs });
  await cancels.close();
  process.stdout.write(`drained ${drained}\n`);
  await redis.quit();
  process.exit(0);
};
process.once('SIGTERM', stop);
// The drills start it with an IPC channel: when the test's process goes, even by SIGKILL, the channel
// closes and it stops as on SIGTERM. (The contract of exitWithParent in @switchboard/service, which
// depends on this package, so it cannot be imported here.) The channel alone never keeps it alive.
process.channel?.unref();
process.once('disconnect', stop);
