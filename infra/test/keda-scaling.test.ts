import { randomUUID } from 'node:crypto';
import { defaultQueueAddress } from '@switchboard/a2a';
import { type Job, Queue, QueueKeys, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import {
  containerEnv,
  containersOf,
  field,
  formulaTerms,
  loadManifests,
  type Manifest,
  ofKind,
} from './support/k8s.ts';
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
interface Trigger {
  type: string;
  name?: string;
  metadata: Record<string, string>;
}
const triggersOf = (scaled: Manifest) => field(scaled, 'spec', 'triggers') as Trigger[];
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

  it.each(WORKERS)('finds the Redis of %s where the service finds it', (worker) => {
    const [container] = containersOf(
      ofKind(entries, 'Deployment').find((d) => d.metadata.name === worker) as Manifest,
    );
    const env = containerEnv(container ?? {}, entries);
    for (const trigger of triggersOf(scaledFor(worker))) {
      const variable = trigger.metadata.addressFromEnv ?? '';
      expect(env[variable], `${variable} is in the ${worker} container's environment`).toBeDefined();
      const url = new URL(String(env.REDIS_URL));
      expect(env[variable]).toBe(`${url.hostname}:${url.port || '6379'}`);
    }
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

describe('the KEDA trigger keys on a real Redis with BullMQ', () => {
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const testNamespace = `infra-${randomUUID().slice(0, 8)}`;
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const closers: (() => Promise<unknown>)[] = [];

  afterAll(async () => {
    for (const close of closers.reverse()) await close().catch(() => {});
    const keys = await redis.keys(`{${testNamespace}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  /** What KEDA's redis scaler reads for one key: LLEN of a list, ZCARD of a sorted set. */
  async function kedaCount(key: string): Promise<{ type: string; count: number }> {
    const type = await redis.type(key);
    const count = type === 'zset' ? await redis.zcard(key) : await redis.llen(key);
    return { type, count };
  }

  it('count every job that is waiting or running, so a busy replica is not scaled away', async () => {
    const worker = 'orders';
    const address = defaultQueueAddress(worker, testNamespace);
    const listNames = triggersOf(scaledFor(worker)).map((t) =>
      t.metadata.listName?.replace(`{${namespace}:`, `{${testNamespace}:`),
    ) as string[];
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

    const counts = await Promise.all(listNames.map(kedaCount));
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
    const after = await Promise.all(listNames.map(kedaCount));
    expect(after.reduce((sum, { count }) => sum + count, 0)).toBe(0);
  });
});
