/**
 * The bundled team as the interop tests reach it: each service its own process on real Redis (a
 * fresh namespace, the shop seeded), the per-user limits off, since one test user sends what many
 * would. Run with node; prints `ready {"supervisorUrl":…,"token":…}` once every service is ready, and
 * stops the team (it drains) and removes its keys on SIGTERM or when the test process that started
 * it goes away (its IPC channel closes).
 */
import { randomUUID } from 'node:crypto';
import { launchSystem } from '@switchboard/cli';
import { RedisShopStore, seedShop } from '@switchboard/customer-service';
import { publicKeyOf } from '@switchboard/identity';
import { createRedisConnection } from '@switchboard/redis';
import { freePort } from '@switchboard/test-processes';

/** Longest a service may take to be ready on a busy machine. */
const READY_TIMEOUT_MS = 90_000;
/** Longest the team may take to drain and stop before this process exits anyway. */
const STOP_DEADLINE_MS = 20_000;

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const namespace = `interop-${randomUUID().slice(0, 8)}`;
const redis = createRedisConnection({ url: redisUrl });

async function removeNamespace() {
  const keys = await redis.keys(`*${namespace}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
}

await seedShop({ store: new RedisShopStore({ redis, prefix: namespace }) });
const ports: Record<string, number> = {};
for (const service of ['supervisor', 'orders', 'inventory', 'comms']) ports[service] = await freePort();
const launched = await launchSystem({
  redisUrl,
  namespace,
  ports,
  baseEnv: process.env,
  env: {
    LOG_LEVEL: 'warn',
    SWITCHBOARD_DRAIN_MS: '2000',
    SWITCHBOARD_RATE_LIMIT_PER_MIN: '0',
    SWITCHBOARD_MAX_TASKS_IN_FLIGHT: '0',
    SWITCHBOARD_MAX_OPEN_STREAMS: '0',
  },
  readyTimeoutMs: READY_TIMEOUT_MS,
  onLog: ({ service, line }) => process.stderr.write(`${service}: ${line}\n`),
}).catch(async (error: unknown) => {
  await removeNamespace();
  throw error;
});
const { supervisorUrl, token, serviceKeys } = launched.access;
// The public half of the supervisor's key, which signs its card: what a verifier is given to trust.
const supervisorKey = serviceKeys.supervisor;
const cardKey = supervisorKey ? publicKeyOf(supervisorKey) : undefined;
process.stdout.write(`ready ${JSON.stringify({ supervisorUrl, token, cardKey })}\n`);

process.channel?.unref();
let stopping = false;
const shutdown = () => {
  if (stopping) return;
  stopping = true;
  setTimeout(() => process.exit(1), STOP_DEADLINE_MS).unref();
  launched
    .stop()
    .then(removeNamespace)
    .then(
      () => process.exit(0),
      () => process.exit(1),
    );
};
process.once('SIGTERM', shutdown);
process.once('disconnect', shutdown);
