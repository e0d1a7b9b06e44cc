import { randomUUID } from 'node:crypto';
import { TaskState } from '@a2a-js/sdk';
import type { BoardApproval } from '@switchboard/protocol';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type ApprovalBoard, actingForOwner, MemoryApprovalBoard } from '../src/approvals.ts';
import { RedisApprovalBoard } from '../src/redis.ts';
import { type Host, sendTask, startHost, textOf } from './support/http-host.ts';
import { removeKeysUnder, testRedis } from './support/redis.ts';

const redis = testRedis();
const prefixes: string[] = [];
afterAll(async () => {
  await removeKeysUnder(redis, prefixes);
  await redis.quit();
});

let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

const boards: [string, () => ApprovalBoard][] = [
  ['memory', () => new MemoryApprovalBoard()],
  [
    'redis',
    () => {
      const prefix = `{test-withdraw-${randomUUID()}}`;
      prefixes.push(prefix);
      return new RedisApprovalBoard({ redis, prefix });
    },
  ],
];

const auth = { customers: { 'customer-token': 'C001' }, operators: { 'operator-token': 'ada' } };

/** Calls the admin API with the operator's token; a body makes it a POST. */
async function admin(url: string, path: string, body?: unknown) {
  const response = await fetch(`${url}/admin${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: 'Bearer operator-token', 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as AdminBody };
}

/** Any reply of the admin API, as these tests read it. */
interface AdminBody {
  approvals: BoardApproval[];
  nextCursor?: string;
  approval: BoardApproval;
  error: { code: string; message: string };
}

describe.each(boards)('%s board: a canceled task withdraws its approval', (_name, create) => {
  it('shows the approval withdrawn, by whom and when, and a decision on it is refused with 409 saying why', async () => {
    host = await startHost({
      turns: [{ toolCalls: [{ name: 'refund_order', arguments: { orderId: 'A10086' } }] }],
      auth,
      approvals: create(),
    });
    const customer = await host.client('JSONRPC', 'customer-token');
    const waiting = await sendTask(customer, 'Please refund order A10086');
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const [pending] = (await admin(host.url, '/approvals')).body.approvals;
    expect(pending).toMatchObject({ status: 'pending', taskId: waiting.id });
    if (!pending) throw new Error('nothing waits on the board');

    const canceled = await customer.cancelTask({ tenant: '', id: waiting.id, metadata: {} });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);

    const shown = await admin(host.url, `/approvals/${pending.id}`);
    expect(shown.body.approval).toMatchObject({ status: 'withdrawn', withdrawnBy: 'user:C001' });
    expect(Date.parse(shown.body.approval.withdrawnAt ?? '')).not.toBeNaN();
    expect((await admin(host.url, '/approvals')).body.approvals).toEqual([]);

    for (const verb of ['approve', 'deny']) {
      const decided = await admin(host.url, `/approvals/${pending.id}/${verb}`, {});
      expect(decided.status).toBe(409);
      expect(decided.body.error.code).toBe('APPROVAL_WITHDRAWN');
      expect(decided.body.error.message).toContain(`task ${waiting.id} was canceled by user:C001`);
    }
    expect(host.shop.refunds).toBe(0);
  });
  it('answers 409, not 502, for a pending entry whose task has ended without withdrawing it (an entry kept from before)', async () => {
    const board = create();
    host = await startHost({
      turns: [{ toolCalls: [{ name: 'refund_order', arguments: { orderId: 'A10086' } }] }],
      auth,
      approvals: board,
      // As a service serves it: the admin API acts in the task owner's scope.
      ownerResolver: actingForOwner(),
    });
    const customer = await host.client('JSONRPC', 'customer-token');
    const waiting = await sendTask(customer, 'Please refund order A10086');
    const [pending] = (await admin(host.url, '/approvals')).body.approvals;
    if (!pending) throw new Error('nothing waits on the board');
    await customer.cancelTask({ tenant: '', id: waiting.id, metadata: {} });
    // As a board written before cancels withdrew approvals holds it: pending, its task canceled.
    await board.reopen(pending.id);
    const first = await admin(host.url, `/approvals/${pending.id}/approve`, {});
    expect(first.status).toBe(409);
    expect(first.body.error).toMatchObject({ code: 'APPROVAL_WITHDRAWN' });
    expect(first.body.error.message).toContain(`its task ${waiting.id} has ended (canceled)`);
    expect((await admin(host.url, `/approvals/${pending.id}`)).body.approval.status).toBe('withdrawn');
    expect((await admin(host.url, `/approvals/${pending.id}/deny`, {})).status).toBe(409);
    expect(host.shop.refunds).toBe(0);
  });
});

describe.each(boards)('%s board: pending approvals are capped per user', (_name, create) => {
  it('refuses the call that would exceed the cap with our words to the model, and the task says so', async () => {
    host = await startHost({
      turns: [
        { toolCalls: [{ name: 'refund_order', arguments: { orderId: 'A10080' } }] },
        { toolCalls: [{ name: 'refund_order', arguments: { orderId: 'A10081' } }] },
        { toolCalls: [{ name: 'refund_order', arguments: { orderId: 'A10082' } }] },
        { text: 'I could not ask for that refund now.' },
      ],
      auth,
      approvals: create(),
      maxPendingApprovals: 2,
    });
    const customer = await host.client('JSONRPC', 'customer-token');
    const first = await sendTask(customer, 'Refund order A10080');
    const second = await sendTask(customer, 'Refund order A10081');
    expect([first.status?.state, second.status?.state]).toEqual([
      TaskState.TASK_STATE_INPUT_REQUIRED,
      TaskState.TASK_STATE_INPUT_REQUIRED,
    ]);
    const third = await sendTask(customer, 'Refund order A10082');
    expect(third.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const told = host.model.requests.at(-1)?.messages.at(-1);
    expect(told).toMatchObject({ role: 'tool' });
    expect(JSON.parse(String(told?.content))).toMatchObject({
      ok: false,
      error: { code: 'TOO_MANY_APPROVALS', message: expect.stringContaining('2 approvals already wait') },
    });
    const read = await customer.getTask({ tenant: '', id: third.id, historyLength: 50 });
    expect(read.history.map((message) => textOf(message))).toContain(
      'Step 1: refund_order failed (TOO_MANY_APPROVALS)',
    );
    const pending = (await admin(host.url, '/approvals')).body.approvals;
    expect(pending.map((approval: { arguments: unknown }) => approval.arguments)).toEqual([
      { orderId: 'A10080' },
      { orderId: 'A10081' },
    ]);
    expect(host.shop.refunds).toBe(0);
  });
});

describe.each(boards)('%s board: the admin API pages the approvals', (_name, create) => {
  it('returns at most limit approvals, oldest first, with a cursor to the next page', async () => {
    host = await startHost({
      turns: [0, 1, 2, 3, 4].map((i) => ({
        toolCalls: [{ name: 'refund_order', arguments: { orderId: `A1008${i}` } }],
      })),
      auth,
      approvals: create(),
    });
    const customer = await host.client('JSONRPC', 'customer-token');
    for (const i of [0, 1, 2, 3, 4]) await sendTask(customer, `Refund order A1008${i}`);
    const seen: unknown[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await admin(host.url, `/approvals?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.approvals.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.approvals.map((approval) => approval.arguments.orderId));
      cursor = page.body.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(['A10080', 'A10081', 'A10082', 'A10083', 'A10084']);
    const bad = await admin(host.url, '/approvals?limit=0');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/limit must be a whole number from 1 to 500/);
    const badCursor = await admin(host.url, '/approvals?cursor=nonsense');
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.error.message).toMatch(/cursor/);
  });
});
