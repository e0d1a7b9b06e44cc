import { createRedisConnection, isCluster, type RedisConnection, scanKeys } from '@switchboard/redis';

/** The tests' Redis: the cluster at REDIS_CLUSTER_NODES in the cluster stage, else REDIS_URL or local. */
export const testRedis = ({ connectionName }: { connectionName?: string } = {}): RedisConnection => {
  const clusterNodes = process.env.REDIS_CLUSTER_NODES;
  const named = connectionName === undefined ? {} : { connectionName };
  return createRedisConnection(
    clusterNodes
      ? { clusterNodes, ...named }
      : { url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', ...named },
  );
};

/**
 * How many connections whose `CLIENT LIST` name holds `mark` Redis has, on every node of a cluster
 * (each node lists only its own clients).
 */
export async function connectionsNamed(redis: RedisConnection, mark: string): Promise<number> {
  if (isCluster(redis) && redis.status !== 'ready') await redis.ping();
  const nodes = isCluster(redis) ? redis.nodes('all') : [redis];
  let count = 0;
  for (const node of nodes) {
    const list = String(await node.client('LIST'));
    for (const line of list.split('\n')) if (/(?:^| )name=(\S*)/.exec(line)?.[1]?.includes(mark)) count++;
  }
  return count;
}

/** Every key matching `pattern` (on every master of a cluster). */
export async function keysOf(redis: RedisConnection, pattern: string): Promise<string[]> {
  const found: string[] = [];
  for await (const keys of scanKeys(redis, pattern)) found.push(...keys);
  return found;
}

/** Deletes every key under each of `prefixes` (a test's own namespaces), on every master of a cluster. */
export async function removeKeysUnder(redis: RedisConnection, prefixes: readonly string[]): Promise<void> {
  for (const prefix of prefixes) {
    const keys = await keysOf(redis, `${prefix}*`);
    if (keys.length > 0) await Promise.all(keys.map((key) => redis.unlink(key)));
  }
}
