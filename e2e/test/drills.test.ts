/**
 * Failure drills: real Redis, every service its own process, the real openai client in each against
 * a scripted OpenAI-compatible server whose latency the drill chooses.
 */
import { TaskState } from '@a2a-js/sdk';
import type { ChatRequest } from '@switchboard/agent';
import { type OpenAICompatibleServer, startOpenAICompatibleServer } from '@switchboard/openai/testing';
import { Queue } from 'bullmq';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { agentOf, delayedOffline, userText } from './support/delayed-offline-model.ts';
import { answerOf, sdkClient, TERMINAL, textMessage, untilState } from './support/sdk-client.ts';
import { NO_CUSTOMER_LIMITS, startTestSystem, type TestSystem } from './support/system.ts';

/** The orders a drill refunds, each with the customer it belongs to (who must ask for it). */
const REFUNDABLE: Readonly<Record<string, string>> = {
  A10086: 'C001',
  A10087: 'C002',
  A10088: 'C003',
  A10090: 'C005',
  A10091: 'C006',
  A10092: 'C007',
  A10093: 'C008',
  A10094: 'C001',
  A10095: 'C002',
  A10096: 'C003',
  A10097: 'C004',
};

let server: OpenAICompatibleServer | undefined;
let system: TestSystem | undefined;
afterEach(async () => {
  await system?.stop();
  await server?.close();
  system = undefined;
  server = undefined;
});

async function start({
  delay,
  replicas = {},
  serviceEnv = {},
}: {
  delay: (request: ChatRequest) => number;
  replicas?: Record<string, number>;
  serviceEnv?: Record<string, Record<string, string>>;
}) {
  server = await startOpenAICompatibleServer({ model: delayedOffline(delay), apiKey: 'sk-drill' });
  system = await startTestSystem({
    env: {
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: 'sk-drill',
      SWITCHBOARD_MODEL: 'scripted-offline',
      SWITCHBOARD_JOB_LOCK_MS: '3000',
      ...NO_CUSTOMER_LIMITS,
    },
    replicas,
    serviceEnv,
  });
  const { supervisorUrl, token, adminToken, users: customers } = system.launched.access;
  const client = await sdkClient(supervisorUrl, token);
  /** An SDK client signed in as the customer who owns `orderId`. */
  const ownerOf = async (orderId: string) =>
    sdkClient(supervisorUrl, customers[REFUNDABLE[orderId] ?? ''] ?? '');
  const admin = (path: string, body?: unknown) =>
    fetch(`${supervisorUrl}/admin${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return { system, client, admin, ownerOf };
}

async function queueCounts(sys: TestSystem, agent: string) {
  const queue = new Queue(`a2a.${agent}`, { connection: sys.redis, prefix: `{${sys.namespace}:${agent}}` });
  try {
    return await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
  } finally {
    await queue.close();
  }
}

describe('failure drills', () => {
  it('SIGKILL of a worker with 50 tasks in flight: all complete on the other replica, no refund runs twice', async () => {
    const {
      system: sys,
      admin,
      ownerOf,
    } = await start({
      // The orders agent thinks for 1.5 s per step, so work is in flight on both replicas when one dies.
      delay: (request) => (agentOf(request) === 'orders' ? 1_500 : 0),
      replicas: { orders: 2 },
    });
    const orderIds = Object.keys(REFUNDABLE);
    // Each refund is asked for by the order's own customer: the shop refuses anyone else's.
    const owners = await Promise.all(orderIds.map(ownerOf));
    const waiting = await Promise.all(
      owners.map(async (owner, i) => ({
        owner,
        task: await owner.sendMessage(textMessage(`Please refund order ${orderIds[i]}, it arrived broken.`)),
      })),
    );
    const ownerOfTask = new Map(waiting.map(({ owner, task }) => ['id' in task ? task.id : '', owner]));
    for (const { task } of waiting)
      expect('status' in task && task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const { approvals } = (await (await admin('/approvals')).json()) as {
      approvals: { id: string; taskId: string }[];
    };
    expect(approvals).toHaveLength(orderIds.length);

    // The rest of the 50 are questions, each customer about their own order.
    const questions = Array.from({ length: 50 - orderIds.length }, (_, i) => {
      const { owner } = waiting[i % waiting.length] as (typeof waiting)[number];
      const orderId = orderIds[i % orderIds.length];
      return owner.sendMessage(textMessage(`Where is my order ${orderId} and when will it arrive?`));
    });
    for (const approval of approvals)
      expect((await admin(`/approvals/${approval.id}/approve`, {})).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await sys.launched.services.get('orders')?.kill()).toBe('SIGKILL');

    const answered = await Promise.all(questions);
    for (const task of answered) {
      expect('status' in task && task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    }
    const refunds = await Promise.all(
      approvals.map((approval) => {
        const owner = ownerOfTask.get(approval.taskId);
        if (!owner) throw new Error(`no customer asked for task ${approval.taskId}`);
        return untilState(owner, approval.taskId, TERMINAL, 90);
      }),
    );
    for (const task of refunds) {
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(answerOf(task)).toMatch(/refunded: yes|already refunded|was not run again/);
    }
    const byOrder = new Map<string, number>();
    for (const refund of await sys.store.listRefunds())
      byOrder.set(refund.orderId, (byOrder.get(refund.orderId) ?? 0) + 1);
    for (const orderId of orderIds) expect(byOrder.get(orderId)).toBe(1);
    expect(await queueCounts(sys, 'orders')).toEqual({ waiting: 0, active: 0, delayed: 0, prioritized: 0 });
  }, 180_000);

  it('a worker that hangs: the hop timeout fails the delegation with a clear answer, and its job is not left behind', async () => {
    const { system: sys, client } = await start({
      delay: (request) =>
        agentOf(request) === 'orders' && userText(request).includes('A10095') ? 120_000 : 0,
      serviceEnv: { supervisor: { SWITCHBOARD_HOP_TIMEOUT_MS: '3000' } },
    });
    // The orders agent's model never answers for this order: the worker hangs on it.
    const task = await client.sendMessage(textMessage('Where is my order A10095 and when will it arrive?'));
    expect('status' in task && task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect('status' in task ? answerOf(task) : '').toContain('The orders agent is not reachable right now');
    let counts = await queueCounts(sys, 'orders');
    for (let i = 0; i < 40 && (counts.active ?? 0) + (counts.waiting ?? 0) > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      counts = await queueCounts(sys, 'orders');
    }
    expect(counts).toEqual({ waiting: 0, active: 0, delayed: 0, prioritized: 0 });
    const after = await client.sendMessage(textMessage('Is the blue kettle in stock?'));
    expect('status' in after ? answerOf(after) : '').toContain('Blue Enamel Kettle');
  }, 90_000);

  it('SIGTERM under load: the worker drains, exits 0 within its grace period, and no task is lost', async () => {
    const { system: sys, client } = await start({
      delay: (request) => (agentOf(request) === 'orders' ? 1_000 : 0),
      replicas: { orders: 2 },
      serviceEnv: { orders: { SWITCHBOARD_DRAIN_MS: '20000' } },
    });
    const requests = Array.from({ length: 20 }, (_, i) =>
      client.sendMessage(textMessage(`Where is my order A100${86 + (i % 12)} and when will it arrive?`)),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const started = Date.now();
    const code = await sys.launched.services.get('orders')?.stop();
    const drainedInMs = Date.now() - started;
    expect(code).toBe(0);
    expect(drainedInMs).toBeLessThan(20_000 + 5_000);
    const tasks = await Promise.all(requests);
    for (const task of tasks) {
      expect('status' in task && task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect('status' in task ? answerOf(task) : '').toContain('The orders agent answered');
    }
  }, 120_000);
});

afterAll(async () => {
  await system?.stop();
  await server?.close();
});
