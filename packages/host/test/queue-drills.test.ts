import { randomUUID } from 'node:crypto';
import { type Task, TaskState } from '@a2a-js/sdk';
import { type Client, ClientFactory } from '@a2a-js/sdk/client';
import { BULLMQ_BINDING, QueueTransportFactory, queueUrl } from '@switchboard/a2a-bullmq';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildAgentCard } from '../src/index.ts';
import { sendRequest, userMessage } from './support/messages.ts';
import { keysOf, testRedis } from './support/redis.ts';
import { createShopAgent } from './support/shop-agent.ts';
import { startWorker, type WorkerProcess } from './support/worker-processes.ts';

const redis = testRedis();
afterAll(() => redis.quit());

let prefix: string;
let workers: WorkerProcess[];
let factory: QueueTransportFactory;
let client: Client;
const queue = 'shop';

beforeEach(async () => {
  prefix = `{drill:${randomUUID()}}`;
  workers = [];
  const { agent } = createShopAgent({ redis, prefix, worker: 'client', lookupMs: 0 });
  const card = buildAgentCard({
    agent,
    interfaces: [{ url: queueUrl({ queue, prefix }), protocolBinding: BULLMQ_BINDING }],
  });
  factory = new QueueTransportFactory({ redis, timeoutMs: 30_000 });
  client = await new ClientFactory({ transports: [factory] }).createFromAgentCard(card);
});

afterEach(async () => {
  await factory.close();
  for (const worker of workers) worker.child.kill('SIGKILL');
  await Promise.all(workers.map((worker) => worker.exited));
  const keys = await keysOf(redis, `${prefix}*`);
  if (keys.length > 0) await Promise.all(keys.map((key) => redis.unlink(key)));
});

const orderIds = (count: number) => Array.from({ length: count }, (_, i) => `A${String(40_000 + i)}`);

async function ask(orderId: string): Promise<Task> {
  return (await client.sendMessage(sendRequest(userMessage(`Where is ${orderId}?`)))) as Task;
}

function answerOf(task: Task): string {
  const content = task.artifacts[0]?.parts[0]?.content;
  return content?.$case === 'text' ? content.value : '';
}

async function receipts(ids: string[]): Promise<number[]> {
  return Promise.all(ids.map(async (id) => Number(await redis.get(`${prefix}:receipts:${id}`))));
}

describe('queue drills with real worker processes', () => {
  it('two worker processes share the load', async () => {
    workers.push(await startWorker({ name: 'alpha', prefix, queue, lookupMs: 150, concurrency: 2 }));
    workers.push(await startWorker({ name: 'beta', prefix, queue, lookupMs: 150, concurrency: 2 }));
    const ids = orderIds(12);
    const tasks = await Promise.all(ids.map(ask));
    expect(tasks.map((task) => task.status?.state)).toEqual(ids.map(() => TaskState.TASK_STATE_COMPLETED));
    const servedBy = new Set(tasks.map((task) => /worker=(\w+)/.exec(answerOf(task))?.[1]));
    expect(servedBy).toEqual(new Set(['alpha', 'beta']));
    expect(await receipts(ids)).toEqual(ids.map(() => 1));
  });

  it('a worker killed with SIGKILL mid-task: the other completes its tasks, and no receipt is sent twice', async () => {
    const alpha = await startWorker({
      name: 'alpha',
      prefix,
      queue,
      lookupMs: 15_000,
      concurrency: 10,
      lockMs: 2_000,
    });
    workers.push(alpha);
    const ids = orderIds(6);
    const pending = Promise.all(ids.map(ask));
    // Wait until alpha has sent every receipt, i.e. it is inside the slow lookup of each task.
    for (let i = 0; i < 100 && (await receipts(ids)).some((count) => count !== 1); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    workers.push(
      await startWorker({ name: 'beta', prefix, queue, lookupMs: 100, concurrency: 10, lockMs: 2_000 }),
    );
    alpha.child.kill('SIGKILL');
    expect(await alpha.exited).toBe('SIGKILL');

    const tasks = await pending;
    expect(tasks.map((task) => task.status?.state)).toEqual(ids.map(() => TaskState.TASK_STATE_COMPLETED));
    expect(tasks.map((task) => /worker=(\w+)/.exec(answerOf(task))?.[1])).toEqual(ids.map(() => 'beta'));
    expect(await receipts(ids)).toEqual(ids.map(() => 1));
  }, 60_000);

  it('a detached run (returnImmediately) whose worker is killed with SIGKILL is finished by another replica', async () => {
    const alpha = await startWorker({
      name: 'alpha',
      prefix,
      queue,
      lookupMs: 15_000,
      concurrency: 2,
      lockMs: 2_000,
    });
    workers.push(alpha);
    const accepted = (await client.sendMessage(sendRequest(userMessage('Where is A60000?'), true))) as Task;
    expect(accepted.status?.state, 'answered before the run ends').not.toBe(TaskState.TASK_STATE_COMPLETED);
    for (let i = 0; i < 600 && (await receipts(['A60000']))[0] !== 1; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await receipts(['A60000']))[0], 'the lookup started on alpha').toBe(1);
    workers.push(
      await startWorker({ name: 'beta', prefix, queue, lookupMs: 100, concurrency: 2, lockMs: 2_000 }),
    );
    alpha.child.kill('SIGKILL');
    expect(await alpha.exited).toBe('SIGKILL');

    let task = await client.getTask({ tenant: '', id: accepted.id, historyLength: 0 });
    for (let i = 0; i < 300 && task.status?.state !== TaskState.TASK_STATE_COMPLETED; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      task = await client.getTask({ tenant: '', id: accepted.id, historyLength: 0 });
    }
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(/worker=(\w+)/.exec(answerOf(task))?.[1]).toBe('beta');
    expect(await receipts(['A60000'])).toEqual([1]);
  }, 60_000);

  it('SIGTERM under load: the worker drains what it holds, exits cleanly, and no task is lost', async () => {
    const alpha = await startWorker({
      name: 'alpha',
      prefix,
      queue,
      lookupMs: 600,
      concurrency: 3,
      graceMs: 10_000,
    });
    workers.push(alpha);
    workers.push(await startWorker({ name: 'beta', prefix, queue, lookupMs: 600, concurrency: 3 }));
    const ids = orderIds(12);
    const pending = Promise.all(ids.map(ask));
    await new Promise((resolve) => setTimeout(resolve, 300));
    alpha.child.kill('SIGTERM');
    expect(await alpha.exited).toBe(0);
    expect(alpha.output()).toContain('drained true');

    const tasks = await pending;
    expect(tasks.map((task) => task.status?.state)).toEqual(ids.map(() => TaskState.TASK_STATE_COMPLETED));
    expect(await receipts(ids)).toEqual(ids.map(() => 1));
  }, 60_000);

  it('a cancel served by another replica aborts the run where it happens', async () => {
    workers.push(await startWorker({ name: 'alpha', prefix, queue, lookupMs: 20_000, concurrency: 1 }));
    workers.push(await startWorker({ name: 'beta', prefix, queue, lookupMs: 20_000, concurrency: 1 }));
    // A blocking send keeps its job active, so the busy worker (concurrency 1) cannot take the cancel.
    const blocking = client.sendMessage(sendRequest(userMessage('Where is A50000?'))) as Promise<Task>;
    // Waits for the lookup to be running (a loaded machine may take a while to hand the job over).
    for (let i = 0; i < 600 && (await receipts(['A50000']))[0] !== 1; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect((await receipts(['A50000']))[0], 'the lookup started on a worker').toBe(1);
    const listed = await client.listTasks({
      tenant: '',
      contextId: '',
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageToken: '',
      statusTimestampAfter: undefined,
    });
    const started = listed.tasks[0];
    if (!started) throw new Error('the task was not stored');
    const canceled = await client.cancelTask({ tenant: '', id: started.id, metadata: {} });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    // The replica running the task saw the cancel and stopped its 20-second lookup.
    let abortedOn: string | null = null;
    for (let i = 0; i < 150 && !abortedOn; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      abortedOn = await redis.get(`${prefix}:aborted:A50000`);
    }
    expect(['alpha', 'beta']).toContain(abortedOn);
    const final = await blocking;
    expect(final.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  }, 60_000);
});
