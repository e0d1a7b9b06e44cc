/**
 * The failover drill (cluster stage only): a Redis Cluster of its own, two worker processes, a few
 * hundred requests, and the master that holds the agent's keys killed with SIGKILL while they run. A
 * replica takes over; every request must still end completed, and no receipt (a non-idempotent write,
 * counted in Redis) may be sent twice.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Task, TaskState } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { BULLMQ_BINDING, QueueTransportFactory, queueUrl } from '@switchboard/a2a-bullmq';
import { createRedisConnection } from '@switchboard/redis';
import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAgentCard } from '../src/index.ts';
import { sendRequest, userMessage } from './support/messages.ts';
import { createShopAgent } from './support/shop-agent.ts';
import { startWorker, type WorkerProcess } from './support/worker-processes.ts';

const script = fileURLToPath(new URL('../../../scripts/redis-cluster.sh', import.meta.url));
const REQUESTS = 300;

/** The port of the master serving `key`'s slot now. */
async function masterOf(redis: Cluster, key: string): Promise<number> {
  const slot = Number(await redis.cluster('KEYSLOT', key));
  const slots = (await redis.cluster('SLOTS')) as unknown as [number, number, [string, number]][];
  const range = slots.find(([first, last]) => slot >= first && slot <= last);
  if (!range) throw new Error(`no master serves slot ${slot}`);
  return range[2][1];
}

describe.skipIf(!process.env.REDIS_CLUSTER_NODES)('a master killed under load', () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-failover-'));
  let nodes: string;
  let redis: Cluster;
  const workers: WorkerProcess[] = [];

  beforeAll(() => {
    nodes = execFileSync('bash', [script, 'start', join(dir, 'cluster')], { encoding: 'utf8' }).trim();
    redis = createRedisConnection({ clusterNodes: nodes });
  }, 120_000);

  afterAll(async () => {
    for (const worker of workers) worker.child.kill('SIGKILL');
    await Promise.all(workers.map((worker) => worker.exited));
    redis?.disconnect();
    execFileSync('bash', [script, 'stop', join(dir, 'cluster')]);
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('a replica takes over: every request ends completed, and no receipt is sent twice', async () => {
    const prefix = `{failover:${randomUUID().slice(0, 8)}}`;
    const queue = 'shop';
    for (const name of ['alpha', 'beta']) {
      workers.push(
        await startWorker({
          name,
          prefix,
          queue,
          lookupMs: 100,
          concurrency: 8,
          lockMs: 5_000,
          env: { REDIS_CLUSTER_NODES: nodes },
        }),
      );
    }
    const { agent } = createShopAgent({ redis, prefix, worker: 'client', lookupMs: 0 });
    const card = buildAgentCard({
      agent,
      interfaces: [{ url: queueUrl({ queue, prefix }), protocolBinding: BULLMQ_BINDING }],
    });
    const factory = new QueueTransportFactory({ redis, timeoutMs: 120_000 });
    try {
      const client = await new ClientFactory({ transports: [factory] }).createFromAgentCard(card);
      const ids = Array.from({ length: REQUESTS }, (_, i) => `A${String(50_000 + i)}`);
      const receiptKeys = ids.map((id) => `${prefix}:receipts:${id}`);
      const pending = Promise.allSettled(
        ids.map(
          async (id) => (await client.sendMessage(sendRequest(userMessage(`Where is ${id}?`)))) as Task,
        ),
      );
      // Kill the master once the work is well under way.
      const sent = async () => (await redis.mget(receiptKeys)).filter((count) => count !== null).length;
      for (let i = 0; i < 600 && (await sent()) < REQUESTS / 5; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const before = await masterOf(redis, prefix);
      const pid = Number(readFileSync(join(dir, 'cluster', String(before), 'redis.pid'), 'utf8'));
      process.kill(pid, 'SIGKILL');

      const settled = await pending;
      const failed = settled.flatMap((result, i) =>
        result.status === 'rejected' ? [`${ids[i]}: ${String(result.reason)}`] : [],
      );
      expect(failed).toEqual([]);
      const states = settled.map((result) =>
        result.status === 'fulfilled' ? result.value.status?.state : undefined,
      );
      expect(states.filter((state) => state !== TaskState.TASK_STATE_COMPLETED)).toEqual([]);
      expect(await masterOf(redis, prefix), 'a replica serves the slot now').not.toBe(before);
      // Runs of the receipt tool, not deliveries of its command (see shop-agent.ts).
      const runs = await Promise.all(ids.map((id) => redis.scard(`${prefix}:receipt-runs:${id}`)));
      expect(
        ids.flatMap((id, i) => (runs[i] === 1 ? [] : [`${id}: ${runs[i]} runs`])),
        'every receipt sent by exactly one run',
      ).toEqual([]);
    } finally {
      await factory.close();
    }
  }, 300_000);
});
