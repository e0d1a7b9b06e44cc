import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisConnection, RedisScript } from '../src/index.ts';

const redis = process.env.REDIS_CLUSTER_NODES
  ? createRedisConnection({ clusterNodes: process.env.REDIS_CLUSTER_NODES })
  : createRedisConnection({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
afterAll(() => redis.quit());

describe('RedisScript', () => {
  it('sends its body once, then runs by SHA1; a script that fails says why', async () => {
    const key = `{test:${randomUUID()}}:count`;
    // A body of its own, so no other test has loaded it.
    const script = new RedisScript(`-- ${randomUUID()}\nreturn redis.call('INCRBY', KEYS[1], ARGV[1])`);
    const loaded = async () => {
      const [exists] = (await redis.call('SCRIPT', 'EXISTS', script.sha)) as number[];
      return exists === 1;
    };
    // On a cluster SCRIPT EXISTS asks one node, not necessarily the key's: check on a single node only.
    if (!process.env.REDIS_CLUSTER_NODES) expect(await loaded()).toBe(false);
    expect(await script.run(redis, [key], ['2'])).toBe(2);
    if (!process.env.REDIS_CLUSTER_NODES) expect(await loaded()).toBe(true);
    expect(await script.run(redis, [key], [3])).toBe(5);
    await redis.del(key);

    const failing = new RedisScript(`-- ${randomUUID()}\nreturn redis.call('NOSUCHCOMMAND')`);
    await expect(failing.run(redis, [key])).rejects.toThrow(/Unknown Redis command|unknown command/i);
  });
});
