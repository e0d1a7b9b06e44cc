import { createRedisConnection, scanKeys } from '@switchboard/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { switchboard } from './support.ts';

// The cluster stage (scripts/test-cluster.sh) sets REDIS_CLUSTER_NODES, and no REDIS_URL.
const clusterNodes = process.env.REDIS_CLUSTER_NODES;

describe.skipIf(!clusterNodes)('switchboard seed on a Redis Cluster', () => {
  const namespace = `seedcluster-${Date.now().toString(36)}`;
  // Made in beforeAll: vitest still runs a skipped describe's body to collect its tests, and a
  // connection without nodes is refused.
  let redis: ReturnType<typeof createRedisConnection>;
  beforeAll(() => {
    redis = createRedisConnection({ clusterNodes: clusterNodes ?? '', lazyConnect: true });
  });
  const shopKeys = async () => {
    const found: string[] = [];
    for await (const keys of scanKeys(redis, `{${namespace}}:*`)) found.push(...keys);
    return found;
  };
  afterAll(async () => {
    for (const key of await shopKeys()) await redis.unlink(key);
    await redis.quit();
  });

  it('loads the shop into the cluster from REDIS_CLUSTER_NODES, once', async () => {
    const env = { REDIS_CLUSTER_NODES: clusterNodes ?? '', SWITCHBOARD_NAMESPACE: namespace };
    const first = await switchboard(['seed', '--json'], env);
    expect(first.code, first.stderr).toBe(0);
    expect((JSON.parse(first.stdout) as { inserted: number }).inserted).toBeGreaterThan(0);
    expect((await shopKeys()).length).toBeGreaterThan(0);
    const again = await switchboard(['seed'], env);
    expect(again.stdout).toContain(`Seeded the shop in the Redis Cluster at ${clusterNodes}`);
    expect(again.stdout).toContain('0 records were new');
  });

  it('stops on a malformed REDIS_CLUSTER_NODES, naming it', async () => {
    const run = await switchboard(['seed'], { REDIS_CLUSTER_NODES: 'redis-0:6379,:7000' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('REDIS_CLUSTER_NODES: Cluster node ":7000" is not host:port');
  });
});
