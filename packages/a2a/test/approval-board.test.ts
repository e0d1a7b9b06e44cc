import { randomUUID } from 'node:crypto';
import type { ApprovalRequest } from '@switchboard/agent';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { type ApprovalBoard, MemoryApprovalBoard } from '../src/approvals/index.ts';
import { RedisApprovalBoard } from '../src/redis/index.ts';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
const prefixes: string[] = [];
afterAll(async () => {
  for (const prefix of prefixes) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  }
  await redis.quit();
});

const request = (id: string, minute = 0): ApprovalRequest => ({
  id,
  agent: 'orders',
  conversationId: 'ctx-1',
  toolCallId: `call-${id}`,
  tool: 'refund_order',
  action: `Refund order A10086 (${id})`,
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
