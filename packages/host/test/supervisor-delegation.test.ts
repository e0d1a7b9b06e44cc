import { TaskState } from '@a2a-js/sdk';
import { defaultQueueAddress } from '@switchboard/a2a-bullmq';
import { Queue } from 'bullmq';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  type DelegatingSystem,
  startDelegatingSystem,
  uniqueNamespace,
} from './support/delegating-system.ts';
import { dataOf, partsText, send, sendTask, textOf, userMessage } from './support/http-host.ts';
import { keysOf, testRedis } from './support/redis.ts';

const redis = testRedis();
const namespaces: string[] = [];
let system: DelegatingSystem | undefined;

afterEach(async () => {
  await system?.close();
  system = undefined;
});
afterAll(async () => {
  for (const namespace of namespaces) {
    const keys = await keysOf(redis, `*${namespace}*`);
    if (keys.length > 0) await Promise.all(keys.map((key) => redis.unlink(key)));
  }
  await redis.quit();
});

async function start(options: { workerUp?: boolean; hopTimeoutMs?: number; replicaWaitMs?: number } = {}) {
  const namespace = uniqueNamespace();
  namespaces.push(namespace);
  system = await startDelegatingSystem({ redis, namespace, ...options });
  return { ...system, namespace };
}

/** Sends a request as a stream: the progress lines as they came (each handed to `onProgress`), then the task. */
async function follow(
  client: Awaited<ReturnType<DelegatingSystem['customer']>>,
  text: string,
  onProgress: (line: string) => Promise<void> | undefined = () => undefined,
) {
  const progress: string[] = [];
  let taskId = '';
  for await (const event of client.sendMessageStream(send(userMessage(text)))) {
    if (event.payload?.$case === 'task') taskId = event.payload.value.id;
    if (event.payload?.$case === 'statusUpdate') {
      taskId = event.payload.value.taskId;
      const line = textOf(event.payload.value.status?.message);
      if (line) {
        progress.push(line);
        await onProgress(line);
      }
    }
  }
  const task = await client.getTask({ tenant: '', id: taskId, historyLength: undefined });
  return { progress, task };
}

/** The jobs left on the orders queue. */
async function waitingJobs(namespace: string) {
  const address = defaultQueueAddress('orders', namespace);
  const queue = new Queue(address.queue, { connection: redis, prefix: address.prefix });
  try {
    return await queue.getJobCounts('waiting', 'active', 'delayed');
  } finally {
    await queue.close();
  }
}

describe('a supervisor delegating over the queue', () => {
  it('hands the request to the worker skill and answers with what the worker said', async () => {
    const sys = await start();
    const client = await sys.customer();
    const task = await sendTask(client, 'Where is order A10086?');
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const answer = partsText(task.artifacts[0]?.parts ?? []);
    expect(answer).toContain('Supervisor:');
    expect(answer).toContain('orders says');
    expect(answer).toContain('shipped');
  });

  it('stops for the worker’s approval, resumes when an operator approves on the board, and refunds once', async () => {
    const sys = await start();
    const client = await sys.customer();
    const waiting = await sendTask(client, 'Please refund order A10086');
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(textOf(waiting.status?.message)).toContain('Refund order A10086 in full (59.90 EUR)');
    const [pending] = (
      dataOf(waiting.status?.message)[0] as { pendingApprovals: { id: string; agent: string }[] }
    ).pendingApprovals;
    expect(pending?.agent).toBe('orders');
    expect(sys.worker.refunds).toBe(0);

    const listed = (await (await sys.admin('/approvals')).json()) as {
      approvals: { id: string; taskId: string }[];
    };
    expect(listed.approvals).toEqual([expect.objectContaining({ id: pending?.id, taskId: waiting.id })]);

    const approved = await sys.admin(`/approvals/${pending?.id}/approve`, { method: 'POST', body: '{}' });
    expect(approved.status).toBe(202);
    const done = await sys.waitForState(client, waiting.id, TaskState.TASK_STATE_COMPLETED);
    expect(partsText(done.artifacts[0]?.parts ?? [])).toContain('refunded');
    expect(sys.worker.refunds).toBe(1);

    const again = await sys.admin(`/approvals/${pending?.id}/approve`, { method: 'POST', body: '{}' });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { message: string } }).error.message).toContain(
      'already approved by ops-ada',
    );
    expect(sys.worker.refunds).toBe(1);
    expect(sys.worker.audit.records.filter((record) => record.kind === 'approval_decision')).toEqual([
      expect.objectContaining({ decision: 'approved', decidedBy: 'ops-ada (via supervisor)' }),
    ]);
  });

  it('a denial reaches the worker, nothing is refunded, and the customer is told', async () => {
    const sys = await start();
    const client = await sys.customer();
    const waiting = await sendTask(client, 'Please refund order A10086');
    const [pending] = (dataOf(waiting.status?.message)[0] as { pendingApprovals: { id: string }[] })
      .pendingApprovals;
    const denied = await sys.admin(`/approvals/${pending?.id}/deny`, {
      method: 'POST',
      body: JSON.stringify({ reason: 'already refunded by phone' }),
    });
    expect(denied.status).toBe(202);
    const done = await sys.waitForState(client, waiting.id, TaskState.TASK_STATE_COMPLETED);
    expect(partsText(done.artifacts[0]?.parts ?? [])).toContain('APPROVAL_DENIED');
    expect(sys.worker.refunds).toBe(0);
  });

  it('refuses admin calls without an operator token, with bad bodies, or for unknown approvals', async () => {
    const sys = await start();
    const anonymous = await fetch(`${sys.url}/admin/approvals`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
    const customer = await fetch(`${sys.url}/admin/approvals`, {
      headers: { Authorization: 'Bearer cust-token-0123456789abcdef' },
    });
    expect(customer.status).toBe(401);
    const unknown = await sys.admin('/approvals/apr_nope/approve', { method: 'POST', body: '{}' });
    expect(unknown.status).toBe(404);
    const bad = await sys.admin('/approvals/apr_nope/approve', { method: 'POST', body: '{"reason": 5}' });
    expect(bad.status).toBe(400);
    const notJson = await sys.admin('/approvals/apr_nope/approve', { method: 'POST', body: '{oops' });
    expect(notJson.status).toBe(400);
    const filter = await sys.admin('/approvals?status=weird');
    expect(filter.status).toBe(400);
  });

  it('a worker that is down fails the delegation within the hop timeout, with an answer', async () => {
    const sys = await start({ workerUp: false, hopTimeoutMs: 1_500 });
    const client = await sys.customer();
    const task = await sendTask(client, 'Where is order A10086?');
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const answer = partsText(task.artifacts[0]?.parts ?? []);
    expect(answer).toContain('TIMEOUT');
    expect(answer).toContain('orders agent is not reachable');
    // Nobody waits for that request any more: it must not run when the worker comes back.
    const address = defaultQueueAddress('orders', sys.namespace);
    const queue = new Queue(address.queue, { connection: redis, prefix: address.prefix });
    expect(await queue.getJobCounts('waiting', 'active', 'delayed')).toEqual({
      waiting: 0,
      active: 0,
      delayed: 0,
    });
    await queue.close();
  });

  it('a worker with no live replica: the progress says so, and the delegation fails after the worker wait, not the hop timeout', async () => {
    // The hop timeout is longer than this test may run: only the worker wait can end the call in time.
    const sys = await start({ workerUp: false, hopTimeoutMs: 60_000, replicaWaitMs: 1_000 });
    const { progress, task } = await follow(await sys.customer(), 'Where is order A10086?');
    expect(progress).toContain('Step 1: orders has no live replica; waiting up to 1 s');
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const answer = partsText(task.artifacts[0]?.parts ?? []);
    expect(answer).toContain('TOOL_FAILED');
    expect(answer).toContain('orders agent is not reachable');
    expect(answer).not.toContain('TIMEOUT');
    expect(await waitingJobs(sys.namespace)).toEqual({ waiting: 0, active: 0, delayed: 0 });
  });

  it('a replica that comes up during the worker wait takes the request, and the delegation answers', async () => {
    const sys = await start({ workerUp: false, hopTimeoutMs: 20_000, replicaWaitMs: 15_000 });
    const { progress, task } = await follow(await sys.customer(), 'Where is order A10086?', (line) =>
      line.includes('no live replica') ? sys.startWorker() : undefined,
    );
    expect(progress).toContain('Step 1: orders has no live replica; waiting up to 15 s');
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(partsText(task.artifacts[0]?.parts ?? [])).toContain('shipped');
  });

  it('canceling the supervisor’s task cancels the worker’s', async () => {
    const sys = await start();
    const client = await sys.customer();
    const stream = client.sendMessageStream({
      tenant: '',
      message: {
        messageId: crypto.randomUUID(),
        role: 1,
        parts: [
          {
            content: { $case: 'text', value: 'Ask the warehouse about A10086' },
            mediaType: 'text/plain',
            filename: '',
            metadata: {},
          },
        ],
        contextId: '',
        taskId: '',
        metadata: {},
        extensions: [],
        referenceTaskIds: [],
      },
      configuration: undefined,
      metadata: {},
    });
    let taskId = '';
    for await (const event of stream) {
      if (event.payload?.$case === 'task') taskId = event.payload.value.id;
      if (
        event.payload?.$case === 'statusUpdate' &&
        textOf(event.payload.value.status?.message).includes('wait_for_warehouse')
      )
        break;
    }
    await client.cancelTask({ tenant: '', id: taskId, metadata: {} });
    await sys.waitForState(client, taskId, TaskState.TASK_STATE_CANCELED);
    for (let i = 0; i < 100 && !sys.worker.waitAborted; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sys.worker.waitAborted).toBe(true);
  });
});
