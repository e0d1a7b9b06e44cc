import { randomUUID } from 'node:crypto';
import { TaskState } from '@a2a-js/sdk';
import { silentLogger } from '@switchboard/agent';
import { type BoardApproval, replyTextOf } from '@switchboard/protocol';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { RedisApprovalBoard, RedisRunStateStore } from '../src/redis.ts';
import { dataOf, type Host, sendTask, startHost, textOf } from './support/http-host.ts';
import { keysOf, removeKeysUnder, testRedis } from './support/redis.ts';

const redis = testRedis();
const prefixes: string[] = [];
let host: Host | undefined;

afterEach(async () => {
  await host?.close();
  host = undefined;
});
afterAll(async () => {
  await removeKeysUnder(redis, prefixes);
  await redis.quit();
});

const OPERATOR = 'operator-token-0123456789';

async function decide(id: string): Promise<number> {
  const response = await fetch(`${host?.url}/admin/approvals/${id}/approve`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${OPERATOR}`, 'Content-Type': 'application/json' },
    body: '{}',
  });
  return response.status;
}

async function boardEntry(id: string): Promise<BoardApproval> {
  const response = await fetch(`${host?.url}/admin/approvals/${id}`, {
    headers: { Authorization: `Bearer ${OPERATOR}` },
  });
  return ((await response.json()) as { approval: BoardApproval }).approval;
}

describe('an approval is bound to the arguments the operator saw', () => {
  it('a waiting call edited in the stored conversation after it was asked does not run on the approval; it is asked again', async () => {
    const prefix = `{test-binding-${randomUUID()}}`;
    prefixes.push(prefix);
    host = await startHost({
      turns: [{ toolCalls: [{ name: 'refund_order', arguments: { orderId: 'A10086' } }] }],
      // After the refund, the model repeats what the tool said, so the answer names the order.
      whenExhausted: (request) => {
        const last = request.messages.at(-1);
        return { text: last?.role === 'tool' ? `Done: ${last.content}` : 'OK.' };
      },
      auth: { customers: { 'customer-token-0123456789': 'C001' }, operators: { [OPERATOR]: 'ada' } },
      approvals: new RedisApprovalBoard({ redis, prefix }),
      runState: new RedisRunStateStore({ redis, prefix, logger: silentLogger() }),
      ownerResolver: () => 'shop',
    });
    const customer = await host.client('JSONRPC', 'customer-token-0123456789');
    const waiting = await sendTask(customer, 'Please refund order A10086');
    const [pending] = dataOf(waiting.status?.message) as [{ pendingApprovals: { id: string }[] }];
    const id = pending.pendingApprovals[0]?.id ?? '';
    expect(await boardEntry(id)).toMatchObject({ status: 'pending', arguments: { orderId: 'A10086' } });

    // Someone with access to the store rewrites the waiting call to refund another order.
    const [key] = await keysOf(redis, `${prefix}:run:*`);
    if (!key) throw new Error('no stored conversation');
    const stored = (await redis.get(key)) ?? '';
    expect(stored).toContain('A10086');
    await redis.set(key, stored.replaceAll('A10086', 'A10001'), 'KEEPTTL');

    // The operator approves what the board shows, the refund of A10086: nothing is refunded, and
    // the board asks again, now showing A10001.
    expect(await decide(id)).toBe(202);
    await expect
      .poll(async () => {
        const entry = await boardEntry(id);
        return [entry.status, entry.arguments];
      })
      .toEqual(['pending', { orderId: 'A10001' }]);
    const refused = await customer.getTask({ tenant: '', id: waiting.id });
    expect(refused.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(textOf(refused.status?.message)).toContain(
      'The approved action differs from the one now requested; it was not done. Ask for approval again.',
    );
    expect(host.shop.refunds).toBe(0);

    // An approval of what is asked now runs it, once.
    expect(await decide(id)).toBe(202);
    await expect
      .poll(async () => (await customer.getTask({ tenant: '', id: waiting.id })).status?.state)
      .toBe(TaskState.TASK_STATE_COMPLETED);
    const done = await customer.getTask({ tenant: '', id: waiting.id });
    expect(replyTextOf(done)).toContain('A10001');
    expect(host.shop.refunds).toBe(1);
  });
});
