import { randomUUID } from 'node:crypto';
import { type Task, TaskState } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { silentLogger } from '@switchboard/agent';
import { afterAll, describe, expect, it } from 'vitest';
import { ACTING_FOR } from '../src/approvals/acting-for.ts';
import { actingForOwner } from '../src/approvals.ts';
import { RedisTaskLedger, RedisTaskStore } from '../src/redis.ts';
import { keysOf, testRedis } from './support/redis.ts';

const redis = testRedis();
const prefix = `{test-ledger-${randomUUID().slice(0, 8)}}`;
afterAll(async () => {
  const keys = await keysOf(redis, `${prefix}*`);
  if (keys.length > 0) await Promise.all(keys.map((key) => redis.unlink(key)));
  await redis.quit();
});

const store = new RedisTaskStore({ redis, prefix, ownerResolver: actingForOwner() });
const asOwner = (owner: string) => {
  const context = new ServerCallContext();
  context.state.set(ACTING_FOR, owner);
  return context;
};
const task = (id: string, state: TaskState): Task => ({
  id,
  contextId: `ctx-${id}`,
  status: { state, message: undefined, timestamp: new Date().toISOString() },
  artifacts: [],
  history: [],
  metadata: {},
});
// A long TTL: the live process's own periodic sweep must not run during the test.
const ledger = (instanceId: string) =>
  new RedisTaskLedger({ redis, prefix, instanceId, ttlMs: 60_000, logger: silentLogger() });

describe('the task ledger', () => {
  it('fails the unfinished tasks of a process that died, and leaves the rest alone', async () => {
    const alive = ledger('alive-1');
    await alive.start(store);
    const dead = ledger('dead-1');
    await store.save(task('t-working', TaskState.TASK_STATE_WORKING), asOwner('alice'));
    await store.save(task('t-waiting', TaskState.TASK_STATE_INPUT_REQUIRED), asOwner('alice'));
    await store.save(task('t-done', TaskState.TASK_STATE_COMPLETED), asOwner('bob'));
    for (const [taskId, owner] of [
      ['t-working', 'alice'],
      ['t-waiting', 'alice'],
      ['t-done', 'bob'],
    ] as const) {
      await dead.begin({ taskId, contextId: `ctx-${taskId}`, owner, tenant: '' });
    }
    await alive.begin({ taskId: 't-alive', contextId: 'ctx', owner: 'carol', tenant: '' });
    await store.save(task('t-alive', TaskState.TASK_STATE_WORKING), asOwner('carol'));

    const failed = await ledger('sweeper').sweep(store);
    expect(failed).toEqual(['t-working']);
    const working = await store.load('t-working', asOwner('alice'));
    expect(working?.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    const message = working?.status?.message?.parts[0]?.content;
    expect(message?.$case === 'text' ? message.value : '').toContain('restarted while it was working');
    expect((await store.load('t-waiting', asOwner('alice')))?.status?.state).toBe(
      TaskState.TASK_STATE_INPUT_REQUIRED,
    );
    expect((await store.load('t-done', asOwner('bob')))?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect((await store.load('t-alive', asOwner('carol')))?.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect(await redis.exists(`${prefix}:ledger:dead-1`)).toBe(0);
    // A drain that ran out of time leaves its unfinished task for another process's sweep.
    await alive.stop();
    expect(await redis.exists(`${prefix}:ledger:alive-1`)).toBe(1);
    expect(await ledger('sweeper-2').sweep(store)).toEqual(['t-alive']);
    expect((await store.load('t-alive', asOwner('carol')))?.status?.state).toBe(TaskState.TASK_STATE_FAILED);
  });

  it('a process that stops with nothing running leaves no record', async () => {
    const quiet = ledger('quiet-1');
    await quiet.start(store);
    await quiet.begin({ taskId: 't-quick', contextId: 'ctx', owner: 'dan', tenant: '' });
    await quiet.end('t-quick');
    await quiet.stop();
    expect(await redis.exists(`${prefix}:ledger:quiet-1`, `${prefix}:alive:quiet-1`)).toBe(0);
  });
});

describe('the task ledger across an upgrade', () => {
  it('a record written before the ledger listed its processes is adopted at start and swept', async () => {
    await store.save(task('t-old', TaskState.TASK_STATE_WORKING), asOwner('erin'));
    await redis.hset(
      `${prefix}:ledger:before-upgrade`,
      't-old',
      JSON.stringify({ taskId: 't-old', contextId: 'ctx-t-old', owner: 'erin', tenant: '' }),
    );
    const upgraded = ledger('upgraded-1');
    await upgraded.start(store);
    await upgraded.stop();
    expect((await store.load('t-old', asOwner('erin')))?.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(await redis.exists(`${prefix}:ledger:before-upgrade`)).toBe(0);
    expect(await redis.smembers(`${prefix}:ledgers`)).not.toContain('before-upgrade');
  });
});
