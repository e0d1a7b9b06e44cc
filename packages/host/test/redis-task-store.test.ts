import { randomUUID } from 'node:crypto';
import { AgentCard, type ListTasksRequest, Role, Task, TaskState } from '@a2a-js/sdk';
import {
  DefaultRequestHandler,
  InMemoryTaskStore,
  ServerCallContext,
  type TaskStore,
  type User,
} from '@a2a-js/sdk/server';
import { createAgentState, Principal } from '@switchboard/agent';
import { MemoryLogger } from '@switchboard/agent/testing';
import { TRANSIENT_KEY } from '@switchboard/protocol';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RedisRunStateStore, RedisTaskDirectory, RedisTaskStore } from '../src/redis.ts';
import { taskCanceledChannel } from '../src/tasks/task-store-keys.ts';
import { keysOf, testRedis } from './support/redis.ts';

const redis = testRedis();
afterAll(() => redis.quit());

let prefix: string;
beforeEach(() => {
  prefix = `{test:${randomUUID()}}`;
});
afterEach(async () => {
  const keys = await keysOf(redis, `${prefix}*`);
  if (keys.length > 0) await Promise.all(keys.map((key) => redis.unlink(key)));
});

const userContext = (userName: string, tenant?: string) =>
  new ServerCallContext({ user: { isAuthenticated: true, userName } satisfies User, tenant });
const anonymous = new ServerCallContext();

function makeTask({
  id,
  contextId = 'ctx-1',
  state = TaskState.TASK_STATE_COMPLETED,
  timestamp = '2025-01-01T00:00:00.000Z',
}: {
  id: string;
  contextId?: string;
  state?: TaskState;
  timestamp?: string | undefined;
}): Task {
  const part = (text: string) => ({
    content: { $case: 'text' as const, value: text },
    metadata: undefined,
    filename: '',
    mediaType: 'text/plain',
  });
  return {
    id,
    contextId,
    status: { state, message: undefined, timestamp },
    history: ['first', 'second', 'third'].map((text, i) => ({
      messageId: `${id}-m${i}`,
      contextId,
      taskId: id,
      role: i % 2 === 0 ? Role.ROLE_USER : Role.ROLE_AGENT,
      parts: [
        part(text),
        {
          content: {
            $case: 'data',
            value: { order: 'A10086', items: [1, 2.5, true, null], nested: { ok: 'yes' } },
          },
          metadata: { source: 'test' },
          filename: '',
          mediaType: 'application/json',
        },
      ],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    })),
    artifacts: [
      {
        artifactId: `${id}-a`,
        name: 'answer',
        description: 'the answer',
        parts: [part('42')],
        metadata: { v: 1 },
        extensions: [],
      },
    ],
    metadata: { customer: { tier: 'gold' } },
  };
}

const listRequest = (request: Partial<ListTasksRequest> = {}): ListTasksRequest => ({
  tenant: '',
  contextId: '',
  status: TaskState.TASK_STATE_UNSPECIFIED,
  pageToken: '',
  statusTimestampAfter: undefined,
  ...request,
});

describe('RedisTaskStore', () => {
  it('keeps a task with its status, history (text and data parts), artifacts and metadata across a restart', async () => {
    const task = makeTask({ id: 'task-restart' });
    const first = testRedis();
    await new RedisTaskStore({ redis: first, prefix }).save(task, anonymous);
    await first.quit();

    const second = testRedis();
    const loaded = await new RedisTaskStore({ redis: second, prefix }).load('task-restart', anonymous);
    await second.quit();
    expect(loaded).toEqual(task);
    expect(loaded && Task.toJSON(loaded)).toEqual(Task.toJSON(task));
  });

  it('stores a task without what it repeats, reads it back whole, and still reads the full form', async () => {
    // Ids as the SDK makes them: UUIDs, which are most of what a message repeats.
    const id = randomUUID();
    const base = makeTask({ id, contextId: randomUUID(), state: TaskState.TASK_STATE_WORKING });
    const [first, second, third] = base.history as [
      Task['history'][0],
      Task['history'][0],
      Task['history'][0],
    ];
    const status = {
      ...third,
      messageId: randomUUID(),
      parts: [third.parts[0] as (typeof third.parts)[0]],
    };
    const task: Task = {
      ...base,
      // As the SDK keeps it: the status message is also the last history entry.
      status: { ...(base.status as NonNullable<Task['status']>), message: status },
      // A message that names no ids, one of another task and context, and the status message.
      history: [
        { ...first, taskId: '', contextId: '' },
        { ...second, taskId: 'other', contextId: 'ctx-2' },
        status,
      ],
    };
    await new RedisTaskStore({ redis, prefix }).save(task, anonymous);
    const stored = (await redis.get(`${prefix}:task:${id}`)) ?? '';
    const loaded = await new RedisTaskStore({ redis, prefix }).load(id, anonymous);
    expect(loaded && Task.toJSON(loaded)).toEqual(Task.toJSON(task));
    const full = JSON.stringify(Task.toJSON(task));
    expect(stored.split(status.messageId).length - 1).toBe(1);
    expect(stored.split(`"${id}"`).length - 1).toBe(1);
    expect(Buffer.byteLength(stored)).toBeLessThan(Buffer.byteLength(full) * 0.85);

    // A task written before, in the full form, reads as it was.
    await redis.set(`${prefix}:task:${id}`, full, 'KEEPTTL');
    const old = await new RedisTaskStore({ redis, prefix }).load(id, anonymous);
    expect(old && Task.toJSON(old)).toEqual(Task.toJSON(task));
  });

  it('lists, filters and pages exactly like the SDK InMemoryTaskStore', async () => {
    const memory = new InMemoryTaskStore();
    const store = new RedisTaskStore({ redis, prefix });
    const { COMPLETED, WORKING, FAILED, INPUT_REQUIRED } = {
      COMPLETED: TaskState.TASK_STATE_COMPLETED,
      WORKING: TaskState.TASK_STATE_WORKING,
      FAILED: TaskState.TASK_STATE_FAILED,
      INPUT_REQUIRED: TaskState.TASK_STATE_INPUT_REQUIRED,
    };
    const tasks = [
      makeTask({ id: 'task-a', state: COMPLETED, timestamp: '2025-01-01T00:00:01.000Z' }),
      makeTask({ id: 'task-b', state: WORKING, timestamp: '2025-01-01T00:00:02.000Z' }),
      makeTask({ id: 'task-c', state: COMPLETED, timestamp: '2025-01-01T00:00:02.000Z', contextId: 'ctx-2' }),
      makeTask({ id: 'task-d', state: FAILED, timestamp: '2025-01-01T00:00:03.000Z' }),
      makeTask({ id: 'task-e', state: COMPLETED, timestamp: '2025-01-01T00:00:02.000Z' }),
      makeTask({ id: 'task-f', state: INPUT_REQUIRED, timestamp: undefined, contextId: 'ctx-2' }),
      makeTask({ id: 'task-g', state: WORKING, timestamp: '2025-01-01T00:00:04.000Z', contextId: 'ctx-2' }),
    ];
    // task-g moves on: the state filter must see only its latest state.
    const later = [
      makeTask({ id: 'task-g', state: COMPLETED, timestamp: '2025-01-01T00:00:05.000Z', contextId: 'ctx-2' }),
    ];
    for (const task of [...tasks, ...later]) {
      await memory.save(task, anonymous);
      await store.save(task, anonymous);
    }
    // task-b runs here, waits on its caller, resumes on another replica, then ends here.
    const replica = new RedisTaskStore({ redis, prefix });
    for (const [task, by] of [
      [makeTask({ id: 'task-b', state: WORKING, timestamp: '2025-01-01T00:00:02.500Z' }), store],
      [makeTask({ id: 'task-b', state: INPUT_REQUIRED, timestamp: '2025-01-01T00:00:02.550Z' }), store],
      [makeTask({ id: 'task-b', state: WORKING, timestamp: '2025-01-01T00:00:02.600Z' }), replica],
      [makeTask({ id: 'task-b', state: FAILED, timestamp: '2025-01-01T00:00:02.700Z' }), store],
    ] as const) {
      await memory.save(task, anonymous);
      await by.save(task, anonymous);
    }
    const requests = [
      listRequest(),
      listRequest({ includeArtifacts: true }),
      listRequest({ contextId: 'ctx-2' }),
      listRequest({ status: COMPLETED }),
      listRequest({ status: WORKING }),
      listRequest({ status: INPUT_REQUIRED }),
      listRequest({ status: FAILED }),
      listRequest({ contextId: 'ctx-2', status: COMPLETED }),
      listRequest({ contextId: 'ctx-1', status: COMPLETED, pageSize: 1 }),
      listRequest({ statusTimestampAfter: '2025-01-01T00:00:01.500Z' }),
      listRequest({ contextId: 'nobody' }),
    ];
    for (const request of requests) {
      const [expected, actual] = await Promise.all([
        memory.list(request, anonymous),
        store.list(request, anonymous),
      ]);
      expect({ request, ...actual, tasks: actual.tasks.map(Task.toJSON) }).toEqual({
        request,
        ...expected,
        tasks: expected.tasks.map(Task.toJSON),
      });
    }
    // Walk every page of size 2, with and without filters, following nextPageToken.
    for (const base of [
      listRequest({ pageSize: 2 }),
      listRequest({ pageSize: 2, status: COMPLETED }),
      listRequest({ pageSize: 2, contextId: 'ctx-2', status: COMPLETED }),
    ]) {
      let request = base;
      const seen: string[] = [];
      for (let page = 0; page < 10; page += 1) {
        const [expected, actual] = await Promise.all([
          memory.list(request, anonymous),
          store.list(request, anonymous),
        ]);
        expect(actual.tasks.map(Task.toJSON)).toEqual(expected.tasks.map(Task.toJSON));
        expect(actual.nextPageToken).toBe(expected.nextPageToken);
        expect(actual.totalSize).toBe(expected.totalSize);
        seen.push(...actual.tasks.map((task) => task.id));
        if (!actual.nextPageToken) break;
        request = { ...request, pageToken: actual.nextPageToken };
      }
      expect(seen.length).toBe((await memory.list({ ...base, pageSize: 100 }, anonymous)).totalSize);
    }
    expect((await store.list(listRequest({ pageSize: 2 }), anonymous)).tasks.map((task) => task.id)).toEqual([
      'task-g',
      'task-d',
    ]);
  });

  it('lists a task saved again in the same state where its state began, and pages past it', async () => {
    const store = new RedisTaskStore({ redis, prefix, progressDelayMs: 0 });
    const WORKING = TaskState.TASK_STATE_WORKING;
    for (const [id, second] of [
      ['task-p', 1],
      ['task-q', 2],
      ['task-r', 3],
    ] as const) {
      await store.save(
        makeTask({ id, state: WORKING, timestamp: `2025-01-01T00:00:0${second}.000Z` }),
        anonymous,
      );
    }
    // task-q gets an artifact and a later status in the same state: no state change, no index write.
    const again = makeTask({ id: 'task-q', state: WORKING, timestamp: '2025-01-01T00:00:09.000Z' });
    again.artifacts = [
      ...again.artifacts,
      { ...again.artifacts[0], artifactId: 'more' } as Task['artifacts'][number],
    ];
    await store.save(again, anonymous);
    const seen: string[] = [];
    let request = listRequest({ pageSize: 1 });
    for (let page = 0; page < 5; page += 1) {
      const listed = await store.list(request, anonymous);
      seen.push(...listed.tasks.map((task) => task.id));
      if (!listed.nextPageToken) break;
      request = { ...request, pageToken: listed.nextPageToken };
    }
    expect(seen).toEqual(['task-r', 'task-q', 'task-p']);
    expect((await store.load('task-q', anonymous))?.status?.timestamp).toBe('2025-01-01T00:00:09.000Z');
  });

  it('applies historyLength and includeArtifacts through the SDK request handler as with InMemoryTaskStore', async () => {
    const card = AgentCard.fromJSON({ name: 'probe', description: 'probe', version: '1.0.0' });
    const executor = { execute: async () => {}, cancelTask: async () => {} };
    const handlers = [new InMemoryTaskStore(), new RedisTaskStore({ redis, prefix })].map(
      (store: TaskStore) => {
        return { store, handler: new DefaultRequestHandler(card, store, executor) };
      },
    );
    for (const { store } of handlers) await store.save(makeTask({ id: 'task-h' }), anonymous);
    for (const params of [
      { historyLength: 0 },
      { historyLength: 2, includeArtifacts: true },
      { historyLength: 10 },
    ]) {
      const [expected, actual] = await Promise.all(
        handlers.map(({ handler }) => handler.listTasks(listRequest(params), anonymous)),
      );
      expect(actual && { ...actual, tasks: actual.tasks.map(Task.toJSON) }).toEqual(
        expected && { ...expected, tasks: expected.tasks.map(Task.toJSON) },
      );
    }
    const trimmed = await handlers[1]?.handler.listTasks(listRequest({ historyLength: 2 }), anonymous);
    expect(trimmed?.tasks[0]?.history.map((message) => message.messageId)).toEqual([
      'task-h-m1',
      'task-h-m2',
    ]);
    expect(trimmed?.tasks[0]?.artifacts).toEqual([]);
  });

  it("keeps one owner's tasks invisible to another owner and another tenant", async () => {
    const store = new RedisTaskStore({ redis, prefix });
    await store.save(makeTask({ id: 'task-alice' }), userContext('alice'));
    expect(await store.load('task-alice', userContext('alice'))).toBeDefined();
    expect(await store.load('task-alice', userContext('bob'))).toBeUndefined();
    expect(await store.load('task-alice', userContext('alice', 'other-tenant'))).toBeUndefined();
    expect((await store.list(listRequest(), userContext('bob'))).tasks).toEqual([]);
    expect((await store.list(listRequest(), userContext('alice'))).tasks.map((task) => task.id)).toEqual([
      'task-alice',
    ]);
  });

  it('loads a task a 0.2 host stored for a user (owner kind "customer") for that user, and for nobody else', async () => {
    const old = new RedisTaskStore({ redis, prefix });
    const task = makeTask({ id: 'task-0-2' });
    const principal = { id: 'C001', kind: 'customer', roles: [], via: [] };
    await old.save(
      { ...task, metadata: { 'switchboard.principal': principal } },
      userContext('customer:C001'),
    );
    const store = new RedisTaskStore({ redis, prefix });
    const loaded = await store.load('task-0-2', userContext('user:C001'));
    expect(loaded?.id).toBe('task-0-2');
    // The principal it was started for reads as the user it is.
    expect(Principal.parse(loaded?.metadata?.['switchboard.principal'])).toEqual({
      ...principal,
      kind: 'user',
    });
    expect(await store.load('task-0-2', userContext('user:C002'))).toBeUndefined();
    expect(await store.load('task-0-2', userContext('operator:C001'))).toBeUndefined();
  });

  it('gives terminal tasks the terminal TTL and others the active TTL; expired tasks leave the list', async () => {
    const store = new RedisTaskStore({
      redis,
      prefix,
      retention: { terminalTtlSeconds: 60, activeTtlSeconds: 3600 },
    });
    await store.save(makeTask({ id: 'task-busy', state: TaskState.TASK_STATE_WORKING }), anonymous);
    expect(await redis.ttl(`${prefix}:task:task-busy`)).toBeGreaterThan(3500);
    await store.save(makeTask({ id: 'task-busy', state: TaskState.TASK_STATE_REJECTED }), anonymous);
    const ttl = await redis.ttl(`${prefix}:task:task-busy`);
    expect(ttl).toBeGreaterThan(50);
    expect(ttl).toBeLessThanOrEqual(60);

    const shortLived = new RedisTaskStore({ redis, prefix, retention: { terminalTtlSeconds: 1 } });
    await shortLived.save(makeTask({ id: 'task-done', timestamp: '2025-01-02T00:00:00.000Z' }), anonymous);
    expect((await shortLived.list(listRequest(), anonymous)).totalSize).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    const listed = await shortLived.list(listRequest(), anonymous);
    expect(listed.tasks.map((task) => task.id)).toEqual(['task-busy']);
    expect(listed.totalSize).toBe(1);
    const indexKeys = await keysOf(redis, `${prefix}:tasks:*`);
    for (const key of indexKeys.filter((key) => !key.endsWith(':ctx-of')))
      expect(await redis.zscore(key, 'task-done')).toBeNull();
  });

  it('treats a corrupt entry as not found, logs it, and still lists the others', async () => {
    const logger = new MemoryLogger();
    const store = new RedisTaskStore({ redis, prefix, logger });
    await store.save(makeTask({ id: 'task-ok', timestamp: '2025-01-01T00:00:01.000Z' }), anonymous);
    await store.save(makeTask({ id: 'task-bad', timestamp: '2025-01-01T00:00:02.000Z' }), anonymous);
    await store.save(makeTask({ id: 'task-odd', timestamp: '2025-01-01T00:00:03.000Z' }), anonymous);
    await redis.set(`${prefix}:task:task-bad`, '{"id":"task-bad","history":', 'KEEPTTL');
    await redis.set(
      `${prefix}:task:task-odd`,
      JSON.stringify({ id: 'task-odd', history: 'not a list' }),
      'KEEPTTL',
    );
    expect(await store.load('task-bad', anonymous)).toBeUndefined();
    expect(await store.load('task-odd', anonymous)).toBeUndefined();
    const listed = await store.list(listRequest({ pageSize: 2 }), anonymous);
    expect(listed.tasks).toEqual([]);
    const next = await store.list(listRequest({ pageSize: 2, pageToken: listed.nextPageToken }), anonymous);
    expect(next.tasks.map((task) => task.id)).toEqual(['task-ok']);
    expect(
      logger.entries.filter((entry) => entry.level === 'warn').map((entry) => entry.fields.taskId),
    ).toContain('task-bad');
    expect(logger.entries.map((entry) => entry.fields.taskId)).toContain('task-odd');
  });

  it('a cancel saved by another replica wins over the later saves of the replica running the task', async () => {
    const running = new RedisTaskStore({ redis, prefix, progressDelayMs: 0 });
    const other = new RedisTaskStore({ redis, prefix });
    const { WORKING, CANCELED, COMPLETED } = {
      WORKING: TaskState.TASK_STATE_WORKING,
      CANCELED: TaskState.TASK_STATE_CANCELED,
      COMPLETED: TaskState.TASK_STATE_COMPLETED,
    };
    await running.save(makeTask({ id: 'task-raced', state: WORKING }), anonymous);
    // The running replica reads its own copy; the other one reads Redis and cancels.
    expect((await running.load('task-raced', anonymous))?.status?.state).toBe(WORKING);
    const seen = await other.load('task-raced', anonymous);
    expect(seen?.status?.state).toBe(WORKING);
    await other.save({ ...(seen as Task), status: { ...seen?.status, state: CANCELED } } as Task, anonymous);
    // Saves the running replica makes from what it held before it heard of the cancel change nothing.
    await running.save(makeTask({ id: 'task-raced', state: WORKING }), anonymous);
    await running.save(makeTask({ id: 'task-raced', state: COMPLETED }), anonymous);
    for (const store of [other, running, new RedisTaskStore({ redis, prefix })]) {
      expect((await store.load('task-raced', anonymous))?.status?.state).toBe(CANCELED);
    }
    const listed = await other.list(listRequest({ status: CANCELED }), anonymous);
    expect(listed.tasks.map((task) => task.id)).toEqual(['task-raced']);
    expect((await other.list(listRequest({ status: COMPLETED }), anonymous)).totalSize).toBe(0);
    // Its own cancel is written, as ever.
    await running.save(
      makeTask({ id: 'task-raced', state: CANCELED, timestamp: '2025-01-03T00:00:00.000Z' }),
      anonymous,
    );
    expect((await other.load('task-raced', anonymous))?.status?.timestamp).toBe('2025-01-03T00:00:00.000Z');
  });

  it('publishes the task id on the cancel channel when a task is saved as canceled, and not before', async () => {
    const subscriber = testRedis();
    const channel = taskCanceledChannel(prefix);
    const received: string[] = [];
    await subscriber.subscribe(channel);
    // A sentinel published after the saves, from where they publish (a script on the prefix's slot: on
    // a Redis Cluster, that slot's master), arrives after any message of theirs.
    const done = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`sentinel not received; got ${received}`)), 5_000);
      subscriber.on('message', (_channel: string, message: string) => {
        if (message !== 'sentinel') received.push(message);
        else {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const store = new RedisTaskStore({ redis, prefix });
    await store.save(makeTask({ id: 'task-x', state: TaskState.TASK_STATE_WORKING }), anonymous);
    await store.save(makeTask({ id: 'task-x', state: TaskState.TASK_STATE_CANCELED }), anonymous);
    await redis.eval("return redis.call('PUBLISH', ARGV[1], 'sentinel')", 1, `${prefix}:sentinel`, channel);
    await done.finally(() => subscriber.quit());
    expect(received).toEqual(['task-x']);
    expect(channel).toBe(`${prefix}:task-canceled`);
  });
});

describe('RedisRunStateStore', () => {
  it('round-trips run state by contextId with a TTL, and reads a corrupt entry as absent', async () => {
    const logger = new MemoryLogger();
    const store = new RedisRunStateStore({ redis, prefix, ttlSeconds: 120, logger });
    const state = {
      messages: [{ role: 'user' as const, content: 'Where is A10086?' }],
      state: createAgentState({ agent: 'shop', conversationId: 'ctx-9' }),
    };
    await store.save('ctx-9', state);
    expect(await new RedisRunStateStore({ redis, prefix }).load('ctx-9')).toEqual(state);
    expect(await redis.ttl(`${prefix}:run:ctx-9`)).toBeGreaterThan(100);
    expect(await store.load('ctx-none')).toBeUndefined();

    await redis.set(`${prefix}:run:ctx-9`, '{"messages": [');
    expect(await store.load('ctx-9')).toBeUndefined();
    await redis.set(`${prefix}:run:ctx-9`, JSON.stringify({ messages: 'nope', state: {} }));
    expect(await store.load('ctx-9')).toBeUndefined();
    expect(logger.entries.filter((entry) => entry.level === 'warn')).toHaveLength(2);
  });
});

describe('RedisTaskStore, progress held back', () => {
  const WORKING = TaskState.TASK_STATE_WORKING;
  const withProgress = (task: Task, lines: number): Task => ({
    ...task,
    history: [
      ...task.history,
      ...Array.from({ length: lines }, (_, i) => ({
        messageId: `${task.id}-progress-${i}`,
        contextId: task.contextId,
        taskId: task.id,
        role: Role.ROLE_AGENT,
        parts: [
          {
            content: { $case: 'text' as const, value: `step ${i}` },
            metadata: undefined,
            filename: '',
            mediaType: 'text/plain',
          },
        ],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      })),
    ],
  });

  it('writes progress late (within the delay) but a state or an artifact at once, with the progress that waited', async () => {
    const running = new RedisTaskStore({ redis, prefix, progressDelayMs: 60_000 });
    const other = new RedisTaskStore({ redis, prefix });
    const started = makeTask({ id: 'held-1', state: WORKING });
    await running.save(started, anonymous);
    await running.save(withProgress(started, 2), anonymous);
    // This process reads its own progress; another replica reads the last write.
    expect((await running.load('held-1', anonymous))?.history).toHaveLength(5);
    expect((await other.load('held-1', anonymous))?.history).toHaveLength(3);

    const answered = withProgress(started, 3);
    answered.artifacts = [
      ...answered.artifacts,
      { ...answered.artifacts[0], artifactId: 'held-1-b' } as Task['artifacts'][number],
    ];
    await running.save(answered, anonymous);
    expect((await other.load('held-1', anonymous))?.artifacts.map((a) => a.artifactId)).toEqual([
      'held-1-a',
      'held-1-b',
    ]);
    expect((await other.load('held-1', anonymous))?.history).toHaveLength(6);

    await running.save(withProgress(answered, 1), anonymous);
    const done = {
      ...withProgress(answered, 2),
      status: { ...answered.status, state: TaskState.TASK_STATE_COMPLETED },
    } as Task;
    await running.save(done, anonymous);
    const read = await other.load('held-1', anonymous);
    expect(read?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(read?.history).toHaveLength(8);
  });

  it('writes held progress when the delay is over, and all of it on flush()', async () => {
    const running = new RedisTaskStore({ redis, prefix, progressDelayMs: 50 });
    const other = new RedisTaskStore({ redis, prefix });
    const started = makeTask({ id: 'held-2', state: WORKING });
    await running.save(started, anonymous);
    await running.save(withProgress(started, 1), anonymous);
    let history = (await other.load('held-2', anonymous))?.history.length;
    for (let i = 0; i < 100 && history !== 4; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      history = (await other.load('held-2', anonymous))?.history.length;
    }
    expect(history).toBe(4);

    const later = new RedisTaskStore({ redis, prefix, progressDelayMs: 60_000 });
    const again = makeTask({ id: 'held-3', state: WORKING });
    await later.save(again, anonymous);
    await later.save(withProgress(again, 2), anonymous);
    expect((await other.load('held-3', anonymous))?.history).toHaveLength(3);
    await later.flush();
    expect((await other.load('held-3', anonymous))?.history).toHaveLength(5);
  });

  it('stores the history without the progress lines marked transient; the status keeps the current one', async () => {
    const running = new RedisTaskStore({ redis, prefix, progressDelayMs: 0 });
    const other = new RedisTaskStore({ redis, prefix });
    const task = withProgress(makeTask({ id: 'held-4', state: WORKING }), 3);
    const [kept, passedOn, last] = task.history.slice(-3);
    if (!kept || !passedOn || !last) throw new Error('no progress lines');
    passedOn.metadata = { [TRANSIENT_KEY]: true };
    last.metadata = { [TRANSIENT_KEY]: true };
    // A caller cannot have its own message left out by marking it.
    kept.role = Role.ROLE_USER;
    kept.metadata = { [TRANSIENT_KEY]: true };
    task.status = { ...task.status, message: last } as Task['status'];
    await running.save(task, anonymous);
    for (const store of [running, other]) {
      const read = await store.load('held-4', anonymous);
      expect(read?.history.map((message) => message.messageId)).toEqual(
        task.history.filter((message) => message !== passedOn && message !== last).map((m) => m.messageId),
      );
      expect(read?.history.map((message) => message.messageId)).toContain(kept.messageId);
      expect(read?.status?.message?.messageId).toBe(last.messageId);
    }
  });

  it('refuses a delay that is not a whole number of milliseconds', () => {
    expect(() => new RedisTaskStore({ redis, prefix, progressDelayMs: -1 })).toThrow(
      /progressDelayMs must be/,
    );
  });
});

describe('RedisTaskDirectory: every owner’s tasks, for operators', () => {
  it('lists the tasks of every owner scope newest first, with whose each is, pages by time, finds one, and drops what expired', async () => {
    const store = new RedisTaskStore({ redis, prefix });
    const directory = new RedisTaskDirectory({ redis, prefix });
    await store.save(makeTask({ id: 't-old', timestamp: '2025-01-01T00:00:00.000Z' }), userContext('u-1'));
    await store.save(
      makeTask({ id: 't-mid', timestamp: '2025-01-02T00:00:00.000Z' }),
      userContext('u-2', 'acme'),
    );
    await store.save(makeTask({ id: 't-new', timestamp: '2025-01-03T00:00:00.000Z' }), userContext('u-1'));
    const recent = await directory.recent();
    expect(recent.map(({ task, tenant, owner }) => [task.id, tenant, owner])).toEqual([
      ['t-new', '', 'u-1'],
      ['t-mid', 'acme', 'u-2'],
      ['t-old', '', 'u-1'],
    ]);
    expect(recent[0]?.task.history.length).toBe(3);
    // Each says when its state last changed: where the next page starts.
    expect(recent.map(({ changedAt }) => changedAt)).toEqual(
      ['2025-01-03', '2025-01-02', '2025-01-01'].map((day) => Date.parse(`${day}T00:00:00.000Z`)),
    );
    const page = await directory.recent({ limit: 1, before: Date.parse('2025-01-03T00:00:00.000Z') });
    expect(page.map(({ task }) => task.id)).toEqual(['t-mid']);
    expect((await directory.find('t-mid'))?.owner).toBe('u-2');
    expect(await directory.find('t-nope')).toBeUndefined();

    // A task whose keys expired is dropped from the index when met.
    await redis.unlink(`${prefix}:task:t-old`, `${prefix}:task-owner:t-old`);
    expect((await directory.recent()).map(({ task }) => task.id)).toEqual(['t-new', 't-mid']);
    expect(await redis.zrange(`${prefix}:tasks-recent`, '0', '-1')).toEqual(['t-mid', 't-new']);
  });
});
