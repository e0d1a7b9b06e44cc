import { randomUUID } from 'node:crypto';
import { TaskState } from '@a2a-js/sdk';
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { MemoryAuditSink, silentLogger } from '@switchboard/agent';
import { sendMessageRequest, userMessage } from '@switchboard/protocol';
import { createRedisConnection, scanKeys } from '@switchboard/redis';
import type { InProcessTeam } from '@switchboard/team';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessTeam } from '../src/team.ts';

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const audit = new MemoryAuditSink();
let team: InProcessTeam;
beforeAll(async () => {
  team = await startInProcessTeam({ port: 0, logger: silentLogger(), audit, redis: { url } });
}, 60_000);
afterAll(() => team?.stop());

describe('the team in one process on Redis, the production path', () => {
  it('answers a customer, the supervisor delegating to the orders worker over its queue', async () => {
    const token = team.access.users.C001 ?? '';
    const fetchAs: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('Authorization', `Bearer ${token}`);
      return fetch(input, { ...init, headers });
    };
    const client = await new ClientFactory({
      transports: [new JsonRpcTransportFactory({ fetchImpl: fetchAs })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl: fetchAs }),
    }).createFromUrl(team.access.supervisorUrl);
    const task = await client.sendMessage(
      sendMessageRequest({
        message: userMessage({ text: 'Where is my order A10086?', contextId: randomUUID() }),
      }),
    );
    if (!('status' in task)) throw new Error('expected a task');
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const answer = (task.artifacts[0]?.parts ?? [])
      .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
      .join('');
    expect(answer).toContain('Stainless Steel Kettle');
    // The worker's run was a queued job of its own namespace's queue, not an HTTP call.
    const redis = createRedisConnection({ url });
    try {
      const queued: string[] = [];
      for await (const keys of scanKeys(redis, `{${team.access.namespace}:orders}:a2a.orders:*`))
        queued.push(...keys);
      expect(queued.length).toBeGreaterThan(0);
    } finally {
      await redis.quit();
    }
  });

  it('leaves nothing of its namespace in Redis once stopped', async () => {
    const { namespace } = team.access;
    await team.stop();
    const redis = createRedisConnection({ url });
    try {
      const left: string[] = [];
      for await (const keys of scanKeys(redis, `*${namespace}*`)) left.push(...keys);
      expect(left).toEqual([]);
    } finally {
      await redis.quit();
    }
  });
});
