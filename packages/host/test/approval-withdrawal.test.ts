import { randomUUID } from 'node:crypto';
import { TaskState } from '@a2a-js/sdk';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type ApprovalBoard, MemoryApprovalBoard } from '../src/approvals.ts';
import { RedisApprovalBoard } from '../src/redis.ts';
import { type Host, sendTask, startHost } from './support/http-host.ts';
import { keysOf, testRedis } from './support/redis.ts';

const redis = testRedis();
const prefixes: string[] = [];
afterAll(async () => {
  for (const prefix of prefixes) {
    const keys = await keysOf(redis, `${prefix}*`);
    if (keys.length > 0) await Promise.all(keys.map((key) => redis.unlink(key)));
  }
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
  return { status: response.status, body: (await response.json()) as Record<string, any> };
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

    const canceled = await customer.cancelTask({ tenant: '', id: waiting.id, metadata: {} });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);

    const shown = await admin(host.url, `/approvals/${pending.id}`);
    expect(shown.body.approval).toMatchObject({ status: 'withdrawn', withdrawnBy: 'user:C001' });
    expect(Date.parse(shown.body.approval.withdrawnAt)).not.toBeNaN();
    expect((await admin(host.url, '/approvals')).body.approvals).toEqual([]);

    for (const verb of ['approve', 'deny']) {
      const decided = await admin(host.url, `/approvals/${pending.id}/${verb}`, {});
      expect(decided.status).toBe(409);
      expect(decided.body.error.code).toBe('APPROVAL_WITHDRAWN');
      expect(decided.body.error.message).toContain(`task ${waiting.id} was canceled by user:C001`);
    }
    expect(host.shop.refunds).toBe(0);
  });
});
