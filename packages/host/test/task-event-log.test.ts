import { randomUUID } from 'node:crypto';
import { StreamResponse } from '@a2a-js/sdk';
import { isCluster } from '@switchboard/redis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { RedisTaskEventLog } from '../src/redis.ts';
import { keysOf, testRedis } from './support/redis.ts';

const redis = testRedis();
afterAll(() => redis.quit());

const prefix = `{test-event-log:${randomUUID().slice(0, 8)}}`;
afterEach(async () => {
  const keys = await keysOf(redis, `${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
});

function recordingLogger() {
  const warnings: { fields: Record<string, unknown>; message: string }[] = [];
  return {
    warnings,
    warn: (fields: Record<string, unknown>, message: string) => warnings.push({ fields, message }),
  };
}

const at = (ms: number) => new Date(Date.UTC(2026, 11, 2, 12, 0, 0, ms)).toISOString();

/** A task's events as ProtoJSON, with every way a message's ids can differ from the task's. */
function eventsOf(taskId: string, contextId: string) {
  const agent = (text: string, ids: Record<string, string>) => ({
    messageId: randomUUID(),
    role: 'ROLE_AGENT',
    parts: [{ text }],
    ...ids,
  });
  return [
    {
      task: {
        id: taskId,
        contextId,
        status: {
          state: 'TASK_STATE_WORKING',
          message: agent('Working on it', { taskId, contextId }),
          timestamp: at(1),
        },
        history: [
          {
            messageId: randomUUID(),
            role: 'ROLE_USER',
            parts: [{ text: 'Where is A10086?' }],
            taskId,
            contextId,
          },
          // A caller's message that named neither (before the task had ids), and one of another task.
          { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'and A10087?' }] },
          agent('see the other task', { taskId: 'another-task', contextId: 'another-context' }),
        ],
        metadata: { 'switchboard.principal': 'customer:C001' },
      },
    },
    {
      statusUpdate: {
        taskId,
        contextId,
        status: {
          state: 'TASK_STATE_WORKING',
          message: agent('Step 1: thinking', { taskId, contextId }),
          timestamp: at(2),
        },
      },
    },
    // A status line whose message names no ids, and one that names only the task.
    {
      statusUpdate: {
        taskId,
        contextId,
        status: { state: 'TASK_STATE_WORKING', message: agent('quiet line', {}), timestamp: at(3) },
      },
    },
    {
      statusUpdate: {
        taskId,
        contextId,
        status: { state: 'TASK_STATE_WORKING', message: agent('half a line', { taskId }), timestamp: at(4) },
      },
    },
    {
      artifactUpdate: {
        taskId,
        contextId,
        artifact: { artifactId: 'answer', parts: [{ text: 'A10086 ships tomorrow.' }] },
        lastChunk: true,
      },
    },
    { statusUpdate: { taskId, contextId, status: { state: 'TASK_STATE_COMPLETED', timestamp: at(5) } } },
  ].map((json) => StreamResponse.fromJSON(json));
}

const asJson = (events: readonly StreamResponse[]) => events.map((event) => StreamResponse.toJSON(event));

async function rawEntries(key: string) {
  return (await redis.xrange(key, '-', '+')) as [string, string[]][];
}

describe('a task event stream', () => {
  it('gives back exactly the events written, whatever ids their messages name, read back or followed', async () => {
    const log = new RedisTaskEventLog({ redis, prefix, blockMs: 200, logger: recordingLogger() });
    const taskId = randomUUID();
    const events = eventsOf(taskId, randomUUID());
    for (const event of events) log.append(taskId, event, { refreshExpiry: false });

    const { events: read, last } = await log.sinceLastTask(taskId);
    expect(last).toBe(events.length);
    expect(read.map((entry) => entry.position)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(asJson(read.map((entry) => entry.event))).toEqual(asJson(events));

    const controller = new AbortController();
    const followed: StreamResponse[] = [];
    for await (const entry of log.follow(taskId, { after: 0, signal: controller.signal })) {
      if (entry) followed.push(entry.event);
      if (followed.length === events.length) controller.abort();
    }
    expect(asJson(followed)).toEqual(asJson(events));
    await log.close();
  });

  it('writes each entry without the ids its stream already names: a status line is a fifth smaller', async () => {
    const log = new RedisTaskEventLog({ redis, prefix, logger: recordingLogger() });
    const taskId = randomUUID();
    const contextId = randomUUID();
    const events = eventsOf(taskId, contextId);
    for (const event of events) log.append(taskId, event, { refreshExpiry: false });
    await log.bounds(taskId); // after the appends, on the same connection
    const entries = await rawEntries(log.key(taskId));
    expect(entries.map(([, fields]) => fields[0])).toEqual(['c', 'c', 'c', 'c', 'c', 'c']);
    const stored = entries.map(([, fields]) => fields[1] ?? '');
    // The task's id is written nowhere; its context id once per entry, not again in its messages.
    for (const text of stored) expect(text).not.toContain(taskId);
    expect(stored.map((text) => text.split(contextId).length - 1)).toEqual([1, 1, 1, 1, 1, 1]);
    const full = JSON.stringify(StreamResponse.toJSON(events[1] as StreamResponse));
    expect(Buffer.byteLength(stored[1] ?? '')).toBeLessThan(Buffer.byteLength(full) * 0.8);
  });

  it('still reads entries of the full form written before, and skips a corrupt one with a warning', async () => {
    const logger = recordingLogger();
    const log = new RedisTaskEventLog({ redis, prefix, logger });
    const taskId = randomUUID();
    const [task, step] = eventsOf(taskId, randomUUID()) as [StreamResponse, StreamResponse];
    const key = log.key(taskId);
    await redis.xadd(key, '0-*', 'e', JSON.stringify(StreamResponse.toJSON(task)));
    await redis.xadd(key, '0-*', 'c', '{"statusUpdate": "not an update"}');
    log.append(taskId, step, { refreshExpiry: false });
    const { events, last } = await log.sinceLastTask(taskId);
    expect(last).toBe(3);
    expect(events.map((entry) => entry.position)).toEqual([1, 3]);
    expect(asJson(events.map((entry) => entry.event))).toEqual(asJson([task, step]));
    expect(logger.warnings).toEqual([
      expect.objectContaining({
        message: 'corrupt task event ignored',
        fields: expect.objectContaining({ id: '0-2', key }),
      }),
    ]);
  });

  it('followers of many tasks, at different positions, joining while others wait, each get exactly their events', async () => {
    // A read that blocks longer than the test: whoever joins must wake it.
    const log = new RedisTaskEventLog({ redis, prefix, blockMs: 120_000, logger: recordingLogger() });
    const tasks: string[] = Array.from({ length: 3 }, () => randomUUID());
    const eventsOfTask = new Map(
      tasks.map((taskId) => [taskId, eventsOf(taskId, randomUUID()) as StreamResponse[]]),
    );
    const controller = new AbortController();
    const follow = async (taskId: string, after: number, want: number) => {
      const got: { position: number; event: StreamResponse }[] = [];
      for await (const entry of log.follow(taskId, { after, signal: controller.signal })) {
        if (entry) got.push(entry);
        if (got.length === want) break;
      }
      return got;
    };
    // The first events of each task are written before anyone follows.
    for (const taskId of tasks)
      log.append(taskId, eventsOfTask.get(taskId)?.[0] as StreamResponse, { refreshExpiry: true });
    const total = eventsOfTask.get(tasks[0] ?? '')?.length ?? 0;
    const fromStart = tasks.map((taskId) => follow(taskId, 0, total));
    // Joining while the shared read blocks: a follower of a task already followed, further on.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const fromOne = tasks.map((taskId) => follow(taskId, 1, total - 1));
    // A task nobody follows yet, its events all written: its follower joins the blocked read.
    const quiet = randomUUID();
    const quietEvents = eventsOf(quiet, randomUUID()) as StreamResponse[];
    for (const event of quietEvents) log.append(quiet, event, { refreshExpiry: true });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(asJson((await follow(quiet, 0, quietEvents.length)).map((entry) => entry.event))).toEqual(
      asJson(quietEvents),
    );
    for (let i = 1; i < total; i++) {
      for (const taskId of tasks)
        log.append(taskId, eventsOfTask.get(taskId)?.[i] as StreamResponse, { refreshExpiry: false });
    }
    const [whole, later] = [await Promise.all(fromStart), await Promise.all(fromOne)];
    tasks.forEach((taskId, t) => {
      const written = asJson(eventsOfTask.get(taskId) ?? []);
      expect(whole[t]?.map((entry) => entry.position)).toEqual(written.map((_, i) => i + 1));
      expect(asJson(whole[t]?.map((entry) => entry.event) ?? [])).toEqual(written);
      expect(asJson(later[t]?.map((entry) => entry.event) ?? [])).toEqual(written.slice(1));
    });
    controller.abort();
    await log.close();
  });

  it.runIf(isCluster(redis))('refuses, on a Redis Cluster, a prefix without a hash tag', () => {
    expect(() => new RedisTaskEventLog({ redis, prefix: 'test-event-log:untagged' })).toThrow(
      /has no hash tag.*in braces/,
    );
  });
});
