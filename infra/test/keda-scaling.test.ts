import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { defaultQueueAddress } from '@switchboard/a2a-bullmq';
import { createRedisConnection } from '@switchboard/redis';
import { freePort } from '@switchboard/test-processes';
import { type Job, Queue, QueueKeys, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  containerEnv,
  containersOf,
  FILLED_SECRETS,
  field,
  filledIn,
  formulaTerms,
  loadManifests,
  type Manifest,
  ofKind,
} from './support/k8s.ts';
import { type RedisTriggerConnection, redisTriggerConnection, type Trigger } from './support/keda.ts';
import { WORKERS } from './support/paths.ts';

const entries = loadManifests();
const [configMap] = ofKind(entries, 'ConfigMap');
const namespace = String(field(configMap, 'data', 'SWITCHBOARD_NAMESPACE'));
const scaledFor = (worker: string): Manifest => {
  const found = ofKind(entries, 'ScaledObject').find(
    (s) => field(s, 'spec', 'scaleTargetRef', 'name') === worker,
  );
  if (!found) throw new Error(`no ScaledObject scales the ${worker} Deployment`);
  return found;
};
const triggersOf = (scaled: Manifest) => field(scaled, 'spec', 'triggers') as Trigger[];
/** The environment of the container KEDA reads (the first), with the Secrets filled in. */
const kedaEnv = (worker: string, overrides: Record<string, string> = {}) => {
  const deployment = ofKind(entries, 'Deployment').find((d) => d.metadata.name === worker) as Manifest;
  const [container] = containersOf(deployment);
  return { ...containerEnv(container ?? {}, entries, { secretValue: filledIn }), ...overrides };
};
/** Where and as whom each trigger of a ScaledObject connects, as KEDA resolves it. */
const connectionsOf = (scaled: Manifest, env: Record<string, string>): RedisTriggerConnection[] =>
  triggersOf(scaled).map((trigger) =>
    redisTriggerConnection(trigger, env, entries, { secretValue: filledIn }),
  );
/** Where and as whom a client of a redis:// URL connects. */
const connectionOfUrl = (redisUrl: string): RedisTriggerConnection => {
  const url = new URL(redisUrl);
  return {
    address: `${url.hostname}:${url.port || '6379'}`,
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
  };
};
/** What KEDA counts: the waiting jobs (wait list, prioritized zset) and the running ones (active list). */
const COUNTED_STATES = ['wait', 'prioritized', 'active'] as const;

describe('KEDA scaling of the workers', () => {
  it('scales each worker, and only the workers, on its own queue', () => {
    const targets = ofKind(entries, 'ScaledObject').map((s) => field(s, 'spec', 'scaleTargetRef', 'name'));
    expect([...targets].sort()).toEqual([...WORKERS].sort());
  });

  it.each(WORKERS)(
    'reads the BullMQ keys of the %s queue: waiting, prioritized and running jobs',
    (worker) => {
      const address = defaultQueueAddress(worker, namespace);
      const keys = new QueueKeys(address.prefix).getKeys(address.queue);
      const triggers = triggersOf(scaledFor(worker));
      expect(triggers.map((t) => t.type)).toEqual(triggers.map(() => 'redis'));
      expect(triggers.map((t) => t.metadata.listName).sort()).toEqual(
        COUNTED_STATES.map((s) => keys[s]).sort(),
      );
      expect(keys.wait).toBe(`{${namespace}:${worker}}:a2a.${worker}:wait`);
    },
  );

  it.each(WORKERS)('sums the %s triggers into one metric instead of taking their maximum', (worker) => {
    const scaled = scaledFor(worker);
    const names = triggersOf(scaled).map((t) => t.name);
    expect(names.every((name) => typeof name === 'string' && name.length > 0)).toBe(true);
    const modifiers = field(scaled, 'spec', 'advanced', 'scalingModifiers') as Record<string, string>;
    const formula = String(modifiers.formula);
    expect(formula.replace(/[A-Za-z_][A-Za-z0-9_]*/g, 'x').replace(/\s+/g, '')).toMatch(/^x(\+x)*$/);
    expect(formulaTerms(formula).sort()).toEqual([...names].sort());
    expect(Number(modifiers.target)).toBeGreaterThan(0);
    expect(modifiers.metricType).toBe('AverageValue');
  });

  it.each(WORKERS)('connects the %s scalers to the Redis of the service, with its password', (worker) => {
    const env = kedaEnv(worker);
    expect(env.REDIS_URL).toBe(FILLED_SECRETS.REDIS_URL);
    const service = connectionOfUrl(String(env.REDIS_URL));
    expect(service.password, 'the filled-in REDIS_URL has a password').toBeTruthy();
    for (const connection of connectionsOf(scaledFor(worker), env)) expect(connection).toEqual(service);
  });

  it('has a check that fails a trigger KEDA would connect without the password', () => {
    const bare = structuredClone(scaledFor('orders'));
    for (const trigger of triggersOf(bare)) delete trigger.authenticationRef;
    const env = kedaEnv('orders');
    const service = connectionOfUrl(String(env.REDIS_URL));
    expect(connectionsOf(bare, env)).not.toContainEqual(service);
    expect(connectionsOf(bare, env).map((c) => c.password)).toEqual([undefined, undefined, undefined]);
  });

  it.each(WORKERS)('keeps %s warm, bounded, and slow to scale in', (worker) => {
    const spec = field(scaledFor(worker), 'spec') as Record<string, unknown>;
    expect(Number(spec.minReplicaCount)).toBeGreaterThanOrEqual(2);
    expect(Number(spec.maxReplicaCount)).toBeGreaterThan(Number(spec.minReplicaCount));
    expect(spec.cooldownPeriod).toBeDefined();
    const scaleDown = field(spec, 'advanced', 'horizontalPodAutoscalerConfig', 'behavior', 'scaleDown');
    expect(Number(field(scaleDown, 'stabilizationWindowSeconds'))).toBeGreaterThanOrEqual(60);
    expect(field(scaleDown, 'policies', 0, 'type')).toBe('Pods');
  });
});

describe('the KEDA triggers on a real Redis with a password, with BullMQ', () => {
  const testNamespace = `infra-${randomUUID().slice(0, 8)}`;
  const closers: (() => Promise<unknown>)[] = [];
  let server: ChildProcess | undefined;
  /** The services' connection: the Secret's REDIS_URL, pointed at this test's redis-server. */
  let redis: Redis;
  /** KEDA's: the first trigger's address, username and password, as KEDA resolves them. */
  let keda: RedisTriggerConnection;
  const clientOf = (connection: RedisTriggerConnection) => {
    const [host, port] = String(connection.address).split(':');
    const client = createRedisConnection({
      url: `redis://${host}:${Number(port)}`,
      ...(connection.username ? { username: connection.username } : {}),
      ...(connection.password ? { password: connection.password } : {}),
      retry: false,
    });
    // A refused login also comes as an 'error' event; the command's rejection is what the test reads.
    client.on('error', () => {});
    closers.push(async () => client.disconnect());
    return client;
  };

  beforeAll(async () => {
    const port = await freePort();
    const password = String(connectionOfUrl(FILLED_SECRETS.REDIS_URL).password);
    server = spawn(
      'redis-server',
      [
        '--bind',
        '127.0.0.1',
        '--port',
        String(port),
        '--requirepass',
        password,
        '--save',
        '',
        '--appendonly',
        'no',
      ],
      // Not detached: a redis-server cannot notice its parent go, but a Ctrl-C in the terminal reaches it.
      { stdio: 'ignore' },
    );
    const url = new URL(FILLED_SECRETS.REDIS_URL);
    url.hostname = '127.0.0.1';
    url.port = String(port);
    const env = kedaEnv('orders', { REDIS_URL: url.href, REDIS_ADDRESS: `127.0.0.1:${port}` });
    redis = createRedisConnection({ url: String(env.REDIS_URL) });
    // Refused connections until redis-server listens; ioredis retries them.
    redis.on('error', () => {});
    const exited = new Promise<never>((_, reject) =>
      server?.once('exit', (code) =>
        reject(new Error(`redis-server on port ${port} exited (${code}) before it answered`)),
      ),
    );
    exited.catch(() => {}); // read by the race below, and only there
    expect(await Promise.race([redis.ping(), exited])).toBe('PONG');
    [keda] = connectionsOf(scaledFor('orders'), env) as [RedisTriggerConnection];
  });

  afterAll(async () => {
    // After a failed test a closer may hang (a job still running); the server goes all the same, within
    // the hook's 10 s.
    const closeAll = async () => {
      for (const close of closers.reverse()) await close().catch(() => {});
    };
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([closeAll(), new Promise((resolve) => (timer = setTimeout(resolve, 4_000)))]);
    clearTimeout(timer);
    redis?.disconnect();
    await stopServer();
  });

  /** SIGTERM, and SIGKILL when it has not exited within 3 s; resolves once it exited. */
  async function stopServer() {
    const running = server;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    const timer = setTimeout(() => running.kill('SIGKILL'), 3_000);
    await exited;
    clearTimeout(timer);
  }

  /** What KEDA's redis scaler reads for one key: LLEN of a list, ZCARD of a sorted set. */
  async function kedaCount(client: Redis, key: string): Promise<{ type: string; count: number }> {
    const type = await client.type(key);
    const count = type === 'zset' ? await client.zcard(key) : await client.llen(key);
    return { type, count };
  }

  it('are refused without the password, as every scaler was before they had one', async () => {
    const [listName] = triggersOf(scaledFor('orders')).map((t) => String(t.metadata.listName));
    await expect(clientOf({ ...keda, password: undefined }).llen(String(listName))).rejects.toThrow(/NOAUTH/);
  });

  it('count every job that is waiting or running, so a busy replica is not scaled away', async () => {
    const worker = 'orders';
    const address = defaultQueueAddress(worker, testNamespace);
    const listNames = triggersOf(scaledFor(worker)).map((t) =>
      t.metadata.listName?.replace(`{${namespace}:`, `{${testNamespace}:`),
    ) as string[];
    const kedaClient = clientOf(keda);
    const queue = new Queue(address.queue, { connection: redis.duplicate(), prefix: address.prefix });
    closers.push(() => queue.close());
    await queue.add('SendMessage', { n: 1 });
    await queue.add('SendMessage', { n: 2 });
    await queue.add('SendMessage', { n: 3 }, { priority: 1 });

    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const consumer = new Worker(address.queue, async (_job: Job) => released, {
      connection: redis.duplicate({ maxRetriesPerRequest: null }),
      prefix: address.prefix,
      concurrency: 1,
    });
    closers.push(() => consumer.close(true));
    await expect.poll(() => queue.getActiveCount(), { timeout: 10_000 }).toBe(1);

    const counts = await Promise.all(listNames.map((name) => kedaCount(kedaClient, name)));
    const byState = Object.fromEntries(
      listNames.map((name, index) => [name.split(':').at(-1), counts[index]]),
    ) as Record<string, { type: string; count: number }>;
    // The worker took a plain job first (BullMQ serves the wait list before the prioritized set).
    expect(byState).toEqual({
      wait: { type: 'list', count: 1 },
      prioritized: { type: 'zset', count: 1 },
      active: { type: 'list', count: 1 },
    });
    const total = counts.reduce((sum, { count }) => sum + count, 0);
    expect(total, 'waiting + prioritized + active = the three jobs not finished').toBe(3);

    release();
    await expect.poll(() => queue.getCompletedCount(), { timeout: 10_000 }).toBe(3);
    const after = await Promise.all(listNames.map((name) => kedaCount(kedaClient, name)));
    expect(after.reduce((sum, { count }) => sum + count, 0)).toBe(0);
  });
});
