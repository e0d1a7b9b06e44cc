/**
 * One configuration of the soak: the customer-service system launched as real processes
 * (`launchSystem`) in a fresh Redis namespace with a seeded shop, every service calling the soak's
 * model server; what the services log at warn and above, tallied; and a clean-up that deletes the
 * namespace's keys and the span file.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LaunchedSystem, launchSystem, type ServiceLogLine } from '@switchboard/cli';
import { RedisShopStore, seedShop } from '@switchboard/customer-service';
import { type RedisConnection, scanKeys } from '@switchboard/redis';
import { freePort } from './loopback-port.ts';

/** A configuration to soak: how many processes each worker runs, and what they start with. */
export interface SoakConfiguration {
  name: string;
  replicas: Readonly<Record<string, number>>;
  /** Node flags for this configuration's services, after the run's own (so a V8 flag here wins). */
  nodeFlags?: readonly string[];
  /** Environment for this configuration's services (e.g. `MALLOC_ARENA_MAX`). */
  env?: Readonly<Record<string, string>>;
}

/**
 * Lines the services logged at warn or above, by service, level and message: how many, when the
 * first and the last came (this machine's clock), and the first in full.
 */
export type LogTally = Map<string, { count: number; first: Date; last: Date; example: string }>;

/** A launched configuration. */
export interface RunningConfiguration {
  namespace: string;
  launched: LaunchedSystem;
  /** Service process name (`orders`, `orders-2`, …) → pid. */
  pids: ReadonlyMap<string, number>;
  logs: LogTally;
  /** Stops the services (SIGTERM, each drains its running tasks first). */
  stop(): Promise<void>;
  /** Deletes the namespace's keys and the spans written; how many bytes and keys. */
  clean(): Promise<{ spanBytes: number; keysDeleted: number }>;
}

const WORKERS = ['orders', 'inventory', 'comms'];

function tally(logs: LogTally, { service, line, record }: ServiceLogLine): void {
  const level = record ? String(record.level ?? '') : 'stderr';
  if (record && !['warn', 'error', 'fatal'].includes(level)) return;
  // Of a printed error (stack, object dump), only its first line.
  if (!record && /^(\s|[}\]])/.test(line)) return;
  const err = (record?.err as { message?: string } | undefined)?.message;
  const text = record ? `${String(record.msg ?? '')}${err ? `: ${err}` : ''}` : line;
  // One entry per kind of line: ids and numbers do not split it.
  const key = `${service.replace(/-\d+$/, '')} ${level}: ${text.slice(0, 200).replace(/[0-9a-f-]{8,}|\d+/g, '#')}`;
  const entry = logs.get(key);
  const now = new Date();
  if (entry) {
    entry.count++;
    entry.last = now;
  } else logs.set(key, { count: 1, first: now, last: now, example: `${service}: ${line.slice(0, 600)}` });
}

/** Deletes every key that names `namespace` (SCAN + UNLINK, 1,000 at a time); how many. */
export async function deleteNamespace(redis: RedisConnection, namespace: string): Promise<number> {
  let deleted = 0;
  // One key per UNLINK: on a cluster the namespace's keys span several slots.
  for await (const keys of scanKeys(redis, `*${namespace}*`)) {
    deleted += (await Promise.all(keys.map((key) => redis.unlink(key)))).reduce((sum, n) => sum + n, 0);
  }
  return deleted;
}

/**
 * Seeds the shop in a fresh namespace and launches the four services (workers replicated as asked),
 * each with `nodeFlags` in its NODE_OPTIONS when given.
 */
export async function startConfiguration({
  redis,
  redisUrl,
  clusterNodes,
  configuration,
  modelUrl,
  nodeFlags: runFlags = [],
  env = {},
}: {
  redis: RedisConnection;
  redisUrl: string;
  /** A Redis Cluster's nodes instead of `redisUrl` (REDIS_CLUSTER_NODES of the services). */
  clusterNodes?: string | undefined;
  configuration: SoakConfiguration;
  modelUrl: string;
  /** Node options for every service process (e.g. `--cpu-prof`), added to NODE_OPTIONS. */
  nodeFlags?: readonly string[];
  /** Extra environment for every service process (e.g. `MALLOC_ARENA_MAX`). */
  env?: Readonly<Record<string, string>>;
}): Promise<RunningConfiguration> {
  const nodeFlags = [...runFlags, ...(configuration.nodeFlags ?? [])];
  const namespace = `soak-${randomUUID().slice(0, 8)}`;
  const spanDir = await mkdtemp(join(tmpdir(), 'switchboard-soak-'));
  const spanFile = join(spanDir, 'spans.jsonl');
  const logs: LogTally = new Map();
  const cleanUp = async () => {
    const spanBytes = await stat(spanFile).then(
      (file) => file.size,
      () => 0,
    );
    await rm(spanDir, { recursive: true, force: true });
    return { spanBytes, keysDeleted: await deleteNamespace(redis, namespace) };
  };
  try {
    await seedShop({ store: new RedisShopStore({ redis, prefix: namespace }) });
    const ports: Record<string, number> = { supervisor: await freePort() };
    for (const worker of WORKERS) {
      ports[worker] = await freePort();
      for (let replica = 2; replica <= (configuration.replicas[worker] ?? 1); replica++) {
        ports[`${worker}-${replica}`] = await freePort();
      }
    }
    const launched = await launchSystem({
      redisUrl,
      namespace,
      ports,
      replicas: configuration.replicas,
      baseEnv: process.env,
      env: {
        ...configuration.env,
        ...(clusterNodes ? { REDIS_URL: '', REDIS_CLUSTER_NODES: clusterNodes } : {}),
        OPENAI_BASE_URL: modelUrl,
        OPENAI_API_KEY: 'x',
        SWITCHBOARD_MODEL: 'scripted',
        SWITCHBOARD_SPAN_FILE: spanFile,
        LOG_LEVEL: 'warn',
        SWITCHBOARD_DRAIN_MS: '10000',
        // The soak is one customer sending what thousands would: their per-customer limits are off.
        SWITCHBOARD_RATE_LIMIT_PER_MIN: '0',
        SWITCHBOARD_MAX_TASKS_IN_FLIGHT: '0',
        ...env,
        ...(nodeFlags.length > 0
          ? { NODE_OPTIONS: [process.env.NODE_OPTIONS, ...nodeFlags].filter(Boolean).join(' ') }
          : {}),
      },
      onLog: (line) => tally(logs, line),
      // A machine busy with other tests can take more than the default minute to start a service.
      readyTimeoutMs: 180_000,
    });
    const pids = new Map(
      [...launched.services].flatMap(([name, service]) =>
        service.child.pid === undefined ? [] : [[name, service.child.pid] as const],
      ),
    );
    return {
      namespace,
      launched,
      pids,
      logs,
      stop: () => launched.stop(),
      clean: cleanUp,
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
