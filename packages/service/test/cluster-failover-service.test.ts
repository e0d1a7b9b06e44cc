/**
 * A real worker service on a Redis Cluster of its own (cluster stage only) whose master is killed:
 * it keeps serving once a replica takes over, says so in its log once, and stops cleanly.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AgentRegistry } from '@switchboard/delegate';
import { createRedisConnection } from '@switchboard/redis';
import { freePort, type GroupProcess, spawnGroup } from '@switchboard/test-processes';
import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceKeyEnv } from './support/service-keys.ts';

const clusterScript = fileURLToPath(new URL('../../../scripts/redis-cluster.sh', import.meta.url));
const serviceScript = fileURLToPath(new URL('./support/worker-service-process.ts', import.meta.url));
const LEFT = 'Redis Cluster node left';

/** The port of the master serving `key`'s slot now. */
async function masterOf(redis: Cluster, key: string): Promise<number> {
  const slot = Number(await redis.cluster('KEYSLOT', key));
  const slots = (await redis.cluster('SLOTS')) as unknown as [number, number, [string, number]][];
  const range = slots.find(([first, last]) => slot >= first && slot <= last);
  if (!range) throw new Error(`no master serves slot ${slot}`);
  return range[2][1];
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.skipIf(!process.env.REDIS_CLUSTER_NODES)('a worker service whose Redis Cluster master dies', () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-service-failover-'));
  let nodes: string;
  let redis: Cluster;
  let worker: GroupProcess | undefined;

  beforeAll(() => {
    nodes = execFileSync('bash', [clusterScript, 'start', join(dir, 'cluster')], { encoding: 'utf8' }).trim();
    redis = createRedisConnection({ clusterNodes: nodes });
  }, 120_000);

  afterAll(async () => {
    await worker?.kill();
    redis?.disconnect();
    execFileSync('bash', [clusterScript, 'stop', join(dir, 'cluster')]);
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('keeps serving after a replica takes over, and logs the failover once', async () => {
    const namespace = `failover-${randomUUID().slice(0, 8)}`;
    const port = await freePort();
    worker = spawnGroup({
      args: [serviceScript],
      env: {
        PATH: process.env.PATH ?? '',
        SWITCHBOARD_SPAN_FILE: join(dir, 'spans.jsonl'),
        REDIS_CLUSTER_NODES: nodes,
        PORT: String(port),
        SWITCHBOARD_NAMESPACE: namespace,
        ...serviceKeyEnv('echo'),
      },
      name: 'the worker service',
    });
    const registry = new AgentRegistry({ redis, namespace });
    const listed = async () => (await registry.list()).some((entry) => entry.name === 'echo');
    await until('the service listing itself', listed);

    const queueKey = `{${namespace}:echo}`;
    const before = await masterOf(redis, queueKey);
    process.kill(Number(readFileSync(join(dir, 'cluster', String(before), 'redis.pid'), 'utf8')), 'SIGKILL');
    await until('a replica taking over', async () => (await masterOf(redis, queueKey)) !== before);
    await until('the service ready again', async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).ok);
    // Heartbeats go on: the entry, deleted, is written again after the failover.
    const [entry] = await registry.list();
    await redis.del(`{${namespace}:registry}:agent:echo:${entry?.instances[0]?.instanceId}`);
    await until('the service listed after the failover', listed);
    await until('the failover logged', async () => worker?.output().includes(LEFT) ?? false);
    // Past the client's flapping between stale slot maps.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(worker.output().split(LEFT).length - 1, worker.output()).toBe(1);
    expect(await worker.stop(), worker.output()).toBe(0);
  }, 180_000);
});
