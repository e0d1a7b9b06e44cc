import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterAll, expect, it } from 'vitest';
import { defaultQueueAddress, QueueDepthReader } from '../src/index.ts';
import { keysOf, testRedis } from './support/redis.ts';

const redis = testRedis();
const namespace = `test-depth-${randomUUID()}`;
afterAll(async () => {
  for (const key of await keysOf(redis, `*${namespace}*`)) await redis.unlink(key);
  await redis.quit();
});

it('reads how many jobs wait on an agent’s queue and how long the oldest has waited', async () => {
  const address = defaultQueueAddress('orders', namespace);
  const depths = new QueueDepthReader({ redis });
  expect(await depths.read(address)).toEqual({ waiting: 0, active: 0, delayed: 0 });

  const queue = new Queue(address.queue, { connection: redis, prefix: address.prefix });
  const first = await queue.add('a2a', { n: 1 }, { timestamp: Date.now() - 5_000 });
  await queue.add('a2a', { n: 2 });
  await queue.add('a2a', { n: 3 }, { delay: 60_000 });
  const depth = await depths.read(address);
  expect(depth).toMatchObject({ waiting: 2, active: 0, delayed: 1 });
  expect(depth.oldestWaitMs).toBeGreaterThanOrEqual(5_000);
  expect(depth.oldestWaitMs).toBeLessThan(60_000);

  await first.remove();
  expect((await depths.read(address)).oldestWaitMs).toBeLessThan(5_000);
  await queue.close();
  await depths.close();
});
