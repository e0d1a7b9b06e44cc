import type { Redis } from 'ioredis';
import { createRedisConnection, isCluster, type RedisConnection, scanKeys } from '../../src/index.ts';

/** The tests' Redis: the cluster at REDIS_CLUSTER_NODES (the cluster stage), else REDIS_URL or local. */
export const testRedis = (): RedisConnection =>
  process.env.REDIS_CLUSTER_NODES
    ? createRedisConnection({ clusterNodes: process.env.REDIS_CLUSTER_NODES })
    : createRedisConnection({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });

/** Every key matching `pattern`, on every master. */
export async function keysOf(redis: RedisConnection, pattern: string): Promise<string[]> {
  const found: string[] = [];
  for await (const keys of scanKeys(redis, pattern)) found.push(...keys);
  return found;
}

/** The servers behind the connection: itself, or each master of a cluster. */
export const serversOf = (redis: RedisConnection): Redis[] =>
  isCluster(redis) ? redis.nodes('master') : [redis];
