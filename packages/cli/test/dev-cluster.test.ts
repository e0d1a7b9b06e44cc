import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRedisConnection, scanKeys } from '@switchboard/redis';
import { type GroupProcess, spawnGroup } from '@switchboard/test-processes';
import { afterAll, describe, expect, it } from 'vitest';
import { closedPort, switchboard } from './support.ts';

// The cluster stage (scripts/test-cluster.sh) sets REDIS_CLUSTER_NODES, and no REDIS_URL.
const clusterNodes = process.env.REDIS_CLUSTER_NODES;
const bin = fileURLToPath(new URL('../bin/switchboard.mjs', import.meta.url));

describe.skipIf(!clusterNodes)('switchboard dev on a Redis Cluster', () => {
  const namespace = `devcluster-${Date.now().toString(36)}`;
  let dev: GroupProcess | undefined;
  afterAll(async () => {
    await dev?.stop({ signal: 'SIGINT', graceMs: 20_000 });
    const redis = createRedisConnection({ clusterNodes: clusterNodes ?? '' });
    for await (const keys of scanKeys(redis, `*${namespace}*`))
      await Promise.all(keys.map((key) => redis.unlink(key)));
    await redis.quit();
  });

  it('runs every service on the cluster REDIS_CLUSTER_NODES names, and answers', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'switchboard-dev-cluster-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      REDIS_CLUSTER_NODES: clusterNodes,
      SWITCHBOARD_NAMESPACE: namespace,
    };
    delete env.REDIS_URL;
    dev = spawnGroup({ args: [bin, 'dev', '--port', String(await closedPort())], cwd, env, name: 'dev' });
    await dev.waitForLine(/Press Ctrl-C to stop\./, { timeoutMs: 90_000, describe: 'that it runs' });
    expect(dev.output()).toContain(`one process per service, on the Redis Cluster at ${clusterNodes}`);
    const asked = await switchboard(
      ['ask', 'Is the blue kettle in stock?'],
      { REDIS_CLUSTER_NODES: clusterNodes ?? '' },
      { cwd },
    );
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stdout).toContain('Blue Enamel Kettle');
  }, 150_000);
});
