import { type StreamResponse, TaskState } from '@a2a-js/sdk';
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import { replyTextOf } from '@switchboard/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { actingForOwner, MemoryApprovalBoard } from '../src/approvals.ts';
import {
  dataOf,
  type Host,
  partsText,
  send,
  sendTask,
  startHost,
  textOf,
  userMessage,
} from './support/http-host.ts';

const lookupTurns = [
  { toolCalls: [{ name: 'get_order', arguments: { orderId: 'A10086' } }] },
  { text: 'Order A10086 has shipped with DHL.' },
];

/** Calls the admin API (`/admin`) with an operator's token; a body makes it a POST. */
async function admin(url: string, token: string, path: string, body?: unknown) {
  const response = await fetch(`${url}/admin${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

describe.each(['JSONRPC', 'HTTP+JSON'] as const)('an agent over A2A HTTP, %s binding', (binding) => {
  it('answers a message with a completed task whose artifact is the answer, written once', async () => {
    host = await startHost({ turns: lookupTurns });
    const client = await host.client(binding);
    const task = await sendTask(client, 'Where is order A10086?');
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts.map((artifact) => partsText(artifact.parts))).toEqual([
      'Order A10086 has shipped with DHL.',
    ]);
    // A client that renders the status message and the artifacts both (ADK, Mastra, the AI SDK's
    // provider) shows the answer once: the final status has no message, the history no copy.
    expect(task.status?.message).toBeUndefined();
    const fetched = await client.getTask({ tenant: '', id: task.id, historyLength: 100 });
    expect(JSON.stringify(fetched).split('Order A10086 has shipped with DHL.').length - 1).toBe(1);
  });

  it('repeats the answer in the final status only when told to (answerInStatus)', async () => {
    host = await startHost({ turns: lookupTurns, answerInStatus: true });
    const client = await host.client(binding);
    const task = await sendTask(client, 'Where is order A10086?');
    expect(textOf(task.status?.message)).toBe('Order A10086 has shipped with DHL.');
    expect(replyTextOf(task)).toBe('Order A10086 has shipped with DHL.');
  });

  it('streams the task, progress naming the tool, the answer artifact, then completed, and ends', async () => {
    host = await startHost({ turns: lookupTurns });
    const client = await host.client(binding);
    const events: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(send(userMessage('Where is order A10086?')))) {
      events.push(event);
    }
    const kinds = events.map((event) => event.payload?.$case);
    expect(kinds[0]).toBe('task');
    // The task goes out already working, saying so by its state: no text a client would render as
    // the start of the reply. The answer is in one event of the stream, the artifact.
    const first = events[0]?.payload;
    expect(first?.$case === 'task' && first.value.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect(first?.$case === 'task' && first.value.status?.message).toBeUndefined();
    const carrying = events.filter((event) => JSON.stringify(event).includes('has shipped with DHL'));
    expect(carrying.map((event) => event.payload?.$case)).toEqual(['artifactUpdate']);
    const statuses = events.flatMap((event) =>
      event.payload?.$case === 'statusUpdate' ? [event.payload.value] : [],
    );
    const working = statuses.filter((update) => update.status?.state === TaskState.TASK_STATE_WORKING);
    expect(working.map((update) => textOf(update.status?.message))).toContain('Step 1: running get_order');
    const artifactAt = kinds.indexOf('artifactUpdate');
    expect(artifactAt).toBeGreaterThan(kinds.indexOf('statusUpdate'));
    const last = events.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactAt).toBe(events.length - 2);
  });

  it('gets a task and lists the tasks of a conversation', async () => {
    host = await startHost({
      turns: [{ text: 'First answer.' }, { text: 'Second answer.' }, { text: 'Other.' }],
    });
    const client = await host.client(binding);
    const first = await sendTask(client, 'Hello');
    const second = await sendTask(client, 'And again', { contextId: first.contextId });
    const other = await sendTask(client, 'Elsewhere');
    const fetched = await client.getTask({ tenant: '', id: second.id });
    expect(fetched.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(replyTextOf(fetched)).toBe('Second answer.');
    const listed = await client.listTasks({
      tenant: '',
      contextId: first.contextId,
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageToken: '',
      statusTimestampAfter: undefined,
    });
    expect(listed.tasks.map((task) => task.id).sort()).toEqual([first.id, second.id].sort());
    expect(listed.tasks.map((task) => task.id)).not.toContain(other.id);
  });

  it('cancels a running task: the tool sees the abort and the stream ends canceled', async () => {
    host = await startHost({
      turns: [{ toolCalls: [{ name: 'wait_for_warehouse', arguments: { orderId: 'A10086' } }] }],
    });
    const client = await host.client(binding);
    const stream = client.sendMessageStream(send(userMessage('Wait for the warehouse on A10086')));
    const first = await stream.next();
    const payload = first.done ? undefined : first.value.payload;
    if (payload?.$case !== 'task') throw new Error('the stream did not start with the task');
    await host.shop.waitStarted;
    const canceled = await client.cancelTask({ tenant: '', id: payload.value.id, metadata: {} });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const rest: StreamResponse[] = [];
    for await (const event of stream) rest.push(event);
    const last = rest.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(host.shop.waitAborted).toBe(true);
  });

  it('asks for approval, takes no decision in a message, resumes on the board’s approval and refunds once', async () => {
    host = await startHost({
      turns: [
        { toolCalls: [{ name: 'refund_order', arguments: { orderId: 'A10086' } }] },
        { text: 'Order A10086 was refunded.' },
        { text: 'It is refunded; nothing else to do.' },
      ],
      auth: { customers: { 'customer-token': 'C001' }, operators: { 'operator-token': 'ada' } },
      approvals: new MemoryApprovalBoard(),
      ownerResolver: () => 'shop',
    });
    const customer = await host.client(binding, 'customer-token');
    const operator = await host.client(binding, 'operator-token');

    const waiting = await sendTask(customer, 'Please refund order A10086');
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(textOf(waiting.status?.message)).toContain('Refund order A10086 in full (59.90 EUR)');
    const [pending] = dataOf(waiting.status?.message) as [
      { pendingApprovals: { id: string; tool: string; argumentsHash: string }[] },
    ];
    expect(pending.pendingApprovals).toMatchObject([
      { tool: 'refund_order', arguments: { orderId: 'A10086' } },
    ]);
    const [request] = pending.pendingApprovals;
    if (!request) throw new Error('no pending approval');
    const decision = {
      approvalDecision: {
        approvalId: request.id,
        decision: 'approved',
        argumentsHash: request.argumentsHash,
      },
    };
    const ids = { taskId: waiting.id, contextId: waiting.contextId, data: decision };

    // Neither the customer nor an operator decides by sending a decision: it stays pending.
    for (const sender of [customer, operator]) {
      const refused = await sendTask(sender, 'I approve this.', ids);
      expect(refused.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(textOf(refused.status?.message)).toMatch(
        /ignored: approvals are decided on the approval board, not in a message/,
      );
      expect(textOf(refused.status?.message)).toContain('POST /admin/approvals/<id>/approve');
    }
    expect(host.shop.refunds).toBe(0);
    const board = await admin(host.url, 'operator-token', '/approvals');
    expect(board.body).toMatchObject({
      approvals: [
        {
          id: request.id,
          status: 'pending',
          arguments: { orderId: 'A10086' },
          argumentsHash: request.argumentsHash,
          requestedBy: 'user:C001',
        },
      ],
    });

    const approved = await admin(host.url, 'operator-token', `/approvals/${request.id}/approve`, {});
    expect(approved.status).toBe(202);
    await expect
      .poll(async () => (await customer.getTask({ tenant: '', id: waiting.id })).status?.state)
      .toBe(TaskState.TASK_STATE_COMPLETED);
    const done = await customer.getTask({ tenant: '', id: waiting.id });
    expect(replyTextOf(done)).toBe('Order A10086 was refunded.');
    expect(host.shop.refunds).toBe(1);
    expect((await admin(host.url, 'operator-token', `/approvals/${request.id}`)).body).toMatchObject({
      approval: { status: 'approved', decidedBy: 'ada' },
    });

    const followUp = await sendTask(customer, 'Anything else?', { contextId: waiting.contextId });
    expect(followUp.id).not.toBe(waiting.id);
    expect(followUp.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const seen = host.model.requests.at(-1)?.messages ?? [];
    expect(seen).toContainEqual({ role: 'user', content: 'Please refund order A10086' });
    expect(seen).toContainEqual({ role: 'assistant', content: 'Order A10086 was refunded.' });
    expect(host.shop.refunds).toBe(1);
  });

  it('rejects a message without text', async () => {
    host = await startHost({ turns: [] });
    const client = await host.client(binding);
    const task = await sendTask(client, '', { data: { orderId: 'A10086' } });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_REJECTED);
    expect(textOf(task.status?.message)).toMatch(/no text to act on/);
    expect(host.model.callCount).toBe(0);
  });

  it('answers GetTask of an unknown id with the SDK’s TaskNotFoundError', async () => {
    host = await startHost({ turns: [] });
    const client = await host.client(binding);
    const error = await client.getTask({ tenant: '', id: 'no-such-task' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TaskNotFoundError);
    expect(error).toMatchObject(
      binding === 'JSONRPC'
        ? { reason: 'TASK_NOT_FOUND', envelopeCode: -32001 }
        : { reason: 'TASK_NOT_FOUND', statusCode: 404 },
    );
  });
});

describe('an operator following the task of an approval', () => {
  it('reads it through the admin API in its owner’s scope, which no customer token may', async () => {
    host = await startHost({
      turns: [
        { toolCalls: [{ name: 'refund_order', arguments: { orderId: 'A10086' } }] },
        { text: 'Order A10086 was refunded.' },
      ],
      auth: {
        customers: { 'customer-token': 'C001', 'other-token': 'C002' },
        operators: { 'operator-token': 'ada' },
      },
      approvals: new MemoryApprovalBoard(),
      ownerResolver: actingForOwner(),
    });
    const customer = await host.client('JSONRPC', 'customer-token');
    const waiting = await sendTask(customer, 'Please refund order A10086');
    const [pending] = dataOf(waiting.status?.message) as [{ pendingApprovals: { id: string }[] }];
    const id = pending.pendingApprovals[0]?.id ?? '';
    const other = await host.client('JSONRPC', 'other-token');
    await expect(other.getTask({ tenant: '', id: waiting.id })).rejects.toBeInstanceOf(TaskNotFoundError);

    const before = await admin(host.url, 'operator-token', `/approvals/${id}/task`);
    expect(before).toMatchObject({
      status: 200,
      body: {
        approval: { id, status: 'pending' },
        task: { id: waiting.id, status: { state: 'TASK_STATE_INPUT_REQUIRED' } },
      },
    });
    for (const token of ['customer-token', 'other-token']) {
      expect(await admin(host.url, token, `/approvals/${id}/task`)).toMatchObject({
        status: 401,
        body: { error: { code: 'UNAUTHORIZED' } },
      });
    }
    expect(await admin(host.url, 'operator-token', '/approvals/apr_0000000000000000/task')).toMatchObject({
      status: 404,
      body: { error: { code: 'APPROVAL_NOT_FOUND' } },
    });

    expect((await admin(host.url, 'operator-token', `/approvals/${id}/approve`, {})).status).toBe(202);
    await expect
      .poll(async () => {
        const after = await admin(host?.url ?? '', 'operator-token', `/approvals/${id}/task`);
        return (after.body as { task: { status: { state: string } } }).task.status.state;
      })
      .toBe('TASK_STATE_COMPLETED');
    expect(host.shop.refunds).toBe(1);
  });
});

describe('an operator who asked for an action', () => {
  it('cannot approve it on the board; another operator can, and it runs once', async () => {
    host = await startHost({
      turns: [
        { toolCalls: [{ name: 'refund_order', arguments: { orderId: 'A10086' } }] },
        { text: 'Order A10086 was refunded.' },
      ],
      auth: { operators: { 'ada-token': 'ada', 'bob-token': 'bob' } },
      approvals: new MemoryApprovalBoard(),
      ownerResolver: () => 'shop',
    });
    const ada = await host.client('JSONRPC', 'ada-token');
    const waiting = await sendTask(ada, 'Please refund order A10086');
    const [pending] = dataOf(waiting.status?.message) as [{ pendingApprovals: { id: string }[] }];
    const id = pending.pendingApprovals[0]?.id;

    const own = await admin(host.url, 'ada-token', `/approvals/${id}/approve`, {});
    expect(own.status).toBe(403);
    expect(own.body).toEqual({
      error: {
        code: 'OWN_REQUEST',
        message: `Approval ${id} was requested by you (operator:ada); another operator must approve it.`,
      },
    });
    expect((await admin(host.url, 'bob-token', `/approvals/${id}`)).body).toMatchObject({
      approval: { status: 'pending', requestedBy: 'operator:ada' },
    });
    expect(host.shop.refunds).toBe(0);

    expect((await admin(host.url, 'bob-token', `/approvals/${id}/approve`, {})).status).toBe(202);
    await expect
      .poll(async () => (await ada.getTask({ tenant: '', id: waiting.id })).status?.state)
      .toBe(TaskState.TASK_STATE_COMPLETED);
    expect(host.shop.refunds).toBe(1);
  });
});
