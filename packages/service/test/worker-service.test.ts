import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AgentRegistry } from '@switchboard/delegate';
import { createRedisConnection } from '@switchboard/redis';
import { freePort, type GroupProcess, spawnGroup } from '@switchboard/test-processes';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { removeNamespaces } from './support/remove-keys.ts';
import { serviceKeyEnv } from './support/service-keys.ts';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
// The cluster stage runs this file on a Redis Cluster: the service is told so as a user would.
const clusterNodes = process.env.REDIS_CLUSTER_NODES;
const redisEnv: Record<string, string> = clusterNodes
  ? { REDIS_CLUSTER_NODES: clusterNodes }
  : { REDIS_URL: redisUrl };
const redis = createRedisConnection(clusterNodes ? { clusterNodes } : { url: redisUrl });
const workdir = mkdtempSync(join(tmpdir(), 'switchboard-worker-service-'));
const script = fileURLToPath(new URL('./support/worker-service-process.ts', import.meta.url));
const started: GroupProcess[] = [];
const namespaces: string[] = [];

afterEach(async () => {
  // Each child leads its own process group: this takes whatever a failed test left.
  await Promise.all(started.splice(0).map((child) => child.kill()));
});
afterAll(async () => {
  await removeNamespaces(redis, namespaces);
  await redis.quit();
  rmSync(workdir, { recursive: true, force: true });
});

/** Starts the worker service with only `env` (and PATH), in its own process group. */
function startWorker(env: Record<string, string>): GroupProcess {
  const worker = spawnGroup({
    args: [script],
    env: { PATH: process.env.PATH ?? '', SWITCHBOARD_SPAN_FILE: join(workdir, 'spans.jsonl'), ...env },
    name: 'the worker service',
  });
  started.push(worker);
  return worker;
}

describe('a worker service’s main (runWorkerService)', () => {
  it('exits 2 on wrong settings, naming each variable and how to fix it', async () => {
    const worker = startWorker({ PORT: 'eighty', REDIS_URL: 'localhost:6379' });
    expect(await worker.exited, worker.output()).toBe(2);
    expect(worker.output()).toContain('The echo service cannot start; fix its environment:');
    expect(worker.output()).toContain('PORT: must be a number');
    expect(worker.output()).toContain('REDIS_URL');
    expect(worker.output()).toContain('SWITCHBOARD_SERVICE_KEY: is required');
  });

  it('exits 2 when Redis cannot be reached, saying so with the URL', async () => {
    const worker = startWorker({
      REDIS_URL: 'redis://127.0.0.1:1',
      ...serviceKeyEnv('echo'),
    });
    expect(await worker.exited, worker.output()).toBe(2);
    expect(worker.output()).toContain('echo failed to start: Redis is not reachable at redis://127.0.0.1:1');
  });

  it('exits 2 on a malformed REDIS_CLUSTER_NODES, naming the entry and the form it takes', async () => {
    const worker = startWorker({
      REDIS_CLUSTER_NODES: '10.0.0.1:6379,redis://10.0.0.2',
      ...serviceKeyEnv('echo'),
    });
    expect(await worker.exited, worker.output()).toBe(2);
    expect(worker.output()).toContain(
      'REDIS_CLUSTER_NODES: Cluster node "redis://10.0.0.2" is not host:port',
    );
  });

  it('serves its agent with good settings: ready, in the registry, and exits 0 on SIGTERM', async () => {
    const namespace = `worker-${randomUUID().slice(0, 8)}`;
    namespaces.push(namespace);
    const port = await freePort();
    const worker = startWorker({
      ...redisEnv,
      PORT: String(port),
      SWITCHBOARD_NAMESPACE: namespace,
      ...serviceKeyEnv('echo'),
    });
    const registry = new AgentRegistry({ redis, namespace });
    let listed: string[] = [];
    for (let i = 0; i < 150 && listed.length === 0; i++) {
      const ended = await Promise.race([worker.exited, new Promise((resolve) => setTimeout(resolve, 100))]);
      expect(ended, worker.output()).toBeUndefined();
      listed = (await registry.list()).map((entry) => entry.name);
    }
    expect(listed).toEqual(['echo']);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    expect(await worker.stop(), worker.output()).toBe(0);
    expect(await registry.list()).toEqual([]);
  }, 30_000);
});
