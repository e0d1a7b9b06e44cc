import { randomUUID } from 'node:crypto';
import { type ApprovalRequest, argumentsHash } from '@switchboard/agent';
import { afterAll, describe, expect, it } from 'vitest';
import { type ApprovalBoard, MemoryApprovalBoard } from '../src/approvals.ts';
import { RedisApprovalBoard } from '../src/redis.ts';
import { removeKeysUnder, testRedis } from './support/redis.ts';

const redis = testRedis();
const prefixes: string[] = [];
afterAll(async () => {
  await removeKeysUnder(redis, prefixes);
  await redis.quit();
});

const request = (
  id: string,
  minute = 0,
  args: Record<string, unknown> = { orderId: 'A10086' },
): ApprovalRequest => ({
  id,
  agent: 'orders',
  conversationId: 'ctx-1',
  toolCallId: `call-${id}`,
  tool: 'refund_order',
  action: `Refund order A10086 (${id})`,
  arguments: args,
  argumentsHash: argumentsHash(args),
  reversible: false,
  repeatable: false,
  text: `The orders agent wants to: Refund order A10086 (${id}). This cannot be undone.`,
  requestedAt: `2026-11-30T10:0${minute}:00.000Z`,
});
const task = { taskId: 'task-1', contextId: 'ctx-1', owner: 'alice', tenant: '' };

const boards: [string, () => ApprovalBoard][] = [
  ['memory', () => new MemoryApprovalBoard()],
  [
    'redis',
    () => {
      const prefix = `{test-board-${randomUUID()}}`;
      prefixes.push(prefix);
      return new RedisApprovalBoard({ redis, prefix });
    },
  ],
];

describe.each(boards)('%s approval board', (_name, create) => {
  it('lists what a task waits for, oldest first, with the task and its owner', async () => {
    const board = create();
    await board.sync({ ...task, pending: [request('apr_b', 2), request('apr_a', 1)] });
    const listed = await board.list();
    expect(listed.map((entry) => [entry.id, entry.status, entry.taskId, entry.owner])).toEqual([
      ['apr_a', 'pending', 'task-1', 'alice'],
      ['apr_b', 'pending', 'task-1', 'alice'],
    ]);
    expect(listed[0]?.text).toContain('cannot be undone');
  });

  it('marks approvals the task no longer asks for as withdrawn, and keeps decided ones as they are', async () => {
    const board = create();
    await board.sync({ ...task, pending: [request('apr_a'), request('apr_b'), request('apr_c')] });
    await board.decide({ id: 'apr_c', decision: 'approved', decidedBy: 'ops-ada' });
    await board.sync({ ...task, pending: [request('apr_a')] });
    const all = await board.list({ status: 'all' });
    expect(Object.fromEntries(all.map((entry) => [entry.id, entry.status]))).toEqual({
      apr_a: 'pending',
      apr_b: 'withdrawn',
      apr_c: 'approved',
    });
    expect((await board.list({ status: 'decided' })).map((entry) => entry.id)).toEqual(['apr_c']);
  });

  it('takes a decision once, records who and when, and refuses the second with the first', async () => {
    const board = create();
    await board.sync({ ...task, pending: [request('apr_a')] });
    const now = new Date('2026-11-30T10:05:00.000Z');
    const results = await Promise.all([
      board.decide({ id: 'apr_a', decision: 'approved', decidedBy: 'ops-ada', now }),
      board.decide({ id: 'apr_a', decision: 'denied', decidedBy: 'ops-bob', now, reason: 'no' }),
    ]);
    const won = results.filter((result) => result.ok);
    expect(won).toHaveLength(1);
    const lost = results.find((result) => !result.ok);
    expect(lost).toMatchObject({ ok: false, reason: 'already_decided' });
    const stored = await board.get('apr_a');
    expect(stored?.decidedAt).toBe('2026-11-30T10:05:00.000Z');
    expect(lost && !lost.ok && lost.reason === 'already_decided' ? lost.approval.decidedBy : '').toBe(
      stored?.decidedBy,
    );
    expect(await board.decide({ id: 'apr_missing', decision: 'approved', decidedBy: 'x' })).toEqual({
      ok: false,
      reason: 'not_found',
    });
  });

  it('keeps every argument as the task sent it, and who asked for it', async () => {
    const board = create();
    const args = {
      to: 'ada@example.com',
      items: [],
      tags: ['a', 'b'],
      amount: 12345678.901234567,
      note: 'a/b "c"',
    };
    await board.sync({
      ...task,
      requestedBy: 'customer:C001',
      pending: [{ ...request('apr_a', 0, args), details: 'Body:\nDear Ada,\nhello' }],
    });
    await board.decide({ id: 'apr_a', decision: 'denied', decidedBy: 'ops-ada', reason: 'no' });
    expect(await board.get('apr_a')).toMatchObject({
      status: 'denied',
      arguments: args,
      argumentsHash: argumentsHash(args),
      details: 'Body:\nDear Ada,\nhello',
      requestedBy: 'customer:C001',
    });
  });

  it('refuses an approval by whom it was requested by; another operator, or a denial, is taken', async () => {
    const board = create();
    await board.sync({ ...task, requestedBy: 'operator:ada', pending: [request('apr_a'), request('apr_b')] });
    const own = await board.decide({
      id: 'apr_a',
      decision: 'approved',
      decidedBy: 'ada',
      deciderKey: 'operator:ada',
    });
    expect(own).toMatchObject({
      ok: false,
      reason: 'own_request',
      approval: { id: 'apr_a', status: 'pending' },
    });
    expect((await board.get('apr_a'))?.status).toBe('pending');
    expect(
      await board.decide({ id: 'apr_a', decision: 'approved', decidedBy: 'bob', deciderKey: 'operator:bob' }),
    ).toMatchObject({ ok: true, approval: { status: 'approved', decidedBy: 'bob' } });
    expect(
      await board.decide({ id: 'apr_b', decision: 'denied', decidedBy: 'ada', deciderKey: 'operator:ada' }),
    ).toMatchObject({ ok: true, approval: { status: 'denied' } });
  });

  it('puts a decided approval back to pending when the task asks it again for other arguments', async () => {
    const board = create();
    await board.sync({ ...task, pending: [request('apr_a')] });
    await board.decide({ id: 'apr_a', decision: 'approved', decidedBy: 'ops-ada' });
    // The same arguments asked again leave the decision as it is.
    await board.sync({ ...task, pending: [request('apr_a')] });
    expect((await board.get('apr_a'))?.status).toBe('approved');
    await board.sync({ ...task, pending: [request('apr_a', 0, { orderId: 'A10001' })] });
    const entry = await board.get('apr_a');
    expect(entry).toMatchObject({ status: 'pending', arguments: { orderId: 'A10001' } });
    expect(entry?.decidedBy).toBeUndefined();
  });

  it('reopens a decision that could not be delivered', async () => {
    const board = create();
    await board.sync({ ...task, pending: [request('apr_a')] });
    await board.decide({ id: 'apr_a', decision: 'denied', decidedBy: 'ops-ada', reason: 'duplicate' });
    await board.reopen('apr_a');
    const entry = await board.get('apr_a');
    expect(entry).toMatchObject({ status: 'pending' });
    expect(entry?.decidedBy).toBeUndefined();
    expect(entry?.reason).toBeUndefined();
  });
});

it('the Redis board expires its entries', async () => {
  const prefix = `{test-board-${randomUUID()}}`;
  prefixes.push(prefix);
  const board = new RedisApprovalBoard({ redis, prefix, ttlSeconds: 60 });
  await board.sync({ ...task, pending: [request('apr_a')] });
  const ttl = await redis.ttl(`${prefix}:approval:apr_a`);
  expect(ttl).toBeGreaterThan(0);
  expect(ttl).toBeLessThanOrEqual(60);
  expect(() => new RedisApprovalBoard({ redis, prefix, ttlSeconds: 0 })).toThrow(/ttlSeconds/);
});
