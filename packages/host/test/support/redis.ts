import { createRedisConnection, type RedisConnection, scanKeys } from '@switchboard/redis';

/** The tests' Redis: the cluster at REDIS_CLUSTER_NODES in the cluster stage, else REDIS_URL or local. */
export const testRedis = (): RedisConnection => {
  const clusterNodes = process.env.REDIS_CLUSTER_NODES;
  return createRedisConnection(
    clusterNodes ? { clusterNodes } : { url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
  );
};

/** Every key matching `pattern` (on every master of a cluster). */
export async function keysOf(redis: RedisConnection, pattern: string): Promise<string[]> {
  const found: string[] = [];
  for await (const keys of scanKeys(redis, pattern)) found.push(...keys);
  return found;
}
