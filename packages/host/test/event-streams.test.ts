import { randomUUID } from 'node:crypto';
import { type Message, type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { QueueTransportFactory } from '@switchboard/a2a-bullmq';
import { defineAgent, defineTool, silentLogger } from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import { STREAM_END_KEY, TRANSIENT_KEY } from '@switchboard/protocol';
import type { RedisConnection } from '@switchboard/redis';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgentHost, type HostLimits, hostAgent } from '../src/index.ts';
import { RedisTaskEventLog, RedisTaskStore } from '../src/redis.ts';
import { collect, positionOf, readSse, withoutPosition } from './support/event-stream.ts';
import { sendRequest, userMessage } from './support/messages.ts';
import { connectionsNamed, keysOf, testRedis } from './support/redis.ts';
import { refundTool } from './support/refund-tool.ts';

const redis = testRedis();
afterAll(() => redis.quit());

const STEPS = 3;
const CUSTOMER = 'cust-streams-token-0123456789abcdef';
const OTHER_CUSTOMER = 'cust-streams-token-fedcba9876543210';
const SERVICE = 'svc-streams-token-0123456789abcdef';
const tokens = {
  customers: { [CUSTOMER]: 'C001', [OTHER_CUSTOMER]: 'C002' },
  services: { [SERVICE]: 'orders' },
};

/** Steps of a task that wait for the test: step n runs once `open(n)` is called. */
function gates() {
  const opened = new Map<number, () => void>();
  const waits = new Map<number, Promise<void>>();
  const wait = (n: number) => {
    let promise = waits.get(n);
    if (!promise) {
      promise = new Promise<void>((resolve) => opened.set(n, resolve));
      waits.set(n, promise);
    }
    return promise;
  };
  const reached = new Set<number>();
  return {
    pass: (n: number) => {
      reached.add(n);
      return wait(n);
    },
    open: (n: number) => {
      void wait(n);
      opened.get(n)?.();
    },
    async reached(n: number) {
      while (!reached.has(n)) await new Promise((resolve) => setTimeout(resolve, 10));
    },
  };
}

let prefix: string;
let hosts: AgentHost[];
let factories: QueueTransportFactory[];
let gate: ReturnType<typeof gates>;

/** A task store whose saves lag: the stream is then ahead of the stored task, as it can be. */
class LaggingTaskStore extends RedisTaskStore {
  override async save(task: Task, context: ServerCallContext): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 100));
    return super.save(task, context);
  }
}

/**
 * One replica of the agent: HTTP and the queue, over the shared Redis prefix; with `lagging`, its
 * task saves come 100 ms after the events.
 */
async function replica({
  lagging = false,
  refunds = false,
  limits,
  followerIdleMs,
  blockMs = 1_000,
  connection = redis,
}: {
  lagging?: boolean;
  /** An agent whose every task stops to wait for the approval of a refund (input-required). */
  refunds?: boolean;
  limits?: HostLimits;
  followerIdleMs?: number;
  blockMs?: number;
  /** The replica's own Redis connection (default the tests' shared one). */
  connection?: RedisConnection;
} = {}): Promise<AgentHost> {
  const step = defineTool({
    name: 'step',
    summary: 'Run one step of the job.',
    whenToUse: 'Always, step by step.',
    input: z.object({ n: z.number().int() }),
    risk: 'read',
    handler: async ({ n }) => {
      await gate.pass(n);
      return { done: n };
    },
  });
  const agent = refunds
    ? defineAgent({ name: 'steps', instructions: 'Refund the orders.', tools: [refundTool()] })
    : defineAgent({ name: 'steps', instructions: 'Run the steps.', tools: [step] });
  const model = refunds
    ? new ScriptedModel({
        turns: [],
        whenExhausted: { toolCalls: [{ name: 'refund_order', arguments: { orderId: 'A00001' } }] },
      })
    : new ScriptedModel({
        turns: [
          ...Array.from({ length: STEPS }, (_, i) => ({
            toolCalls: [{ name: 'step', arguments: { n: i + 1 } }],
          })),
          { text: 'All steps done.' },
        ],
      });
  const host = await hostAgent({
    agent,
    model,
    logger: silentLogger(),
    http: {},
    queue: { redis: connection, address: { queue: 'steps', prefix } },
    auth: { tokens },
    ...(limits ? { limits } : {}),
    stores: {
      taskStore: new (lagging ? LaggingTaskStore : RedisTaskStore)({
        redis: connection,
        prefix,
        logger: silentLogger(),
      }),
      eventLog: new RedisTaskEventLog({
        redis: connection,
        prefix,
        blockMs,
        ...(followerIdleMs ? { followerIdleMs } : {}),
        logger: silentLogger(),
      }),
    },
  });
  await host.start();
  hosts.push(host);
  return host;
}

async function httpClient(host: AgentHost, binding: 'JSONRPC' | 'HTTP+JSON', token: string): Promise<Client> {
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('Authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  const transports =
    binding === 'JSONRPC'
      ? [new JsonRpcTransportFactory({ fetchImpl })]
      : [new RestTransportFactory({ fetchImpl })];
  return new ClientFactory({
    transports,
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
  }).createFromUrl(host.url);
}

async function queueClient(host: AgentHost): Promise<Client> {
  const factory = new QueueTransportFactory({ redis, timeoutMs: 30_000 });
  factories.push(factory);
  return new ClientFactory({ transports: [factory] }).createFromAgentCard(host.card);
}

/** Starts the task on `host` with a streaming message and waits until its first step has begun. */
async function startTask(client: Client) {
  const own = collect(client.sendMessageStream(sendRequest(userMessage('Run the steps.'))));
  await own.until(1);
  const first = own.events[0]?.payload;
  if (first?.$case !== 'task') throw new Error('the stream did not start with the task');
  await gate.reached(1);
  return { own, taskId: first.value.id };
}

const stateOf = (event: StreamResponse | undefined) =>
  event?.payload?.$case === 'task'
    ? event.payload.value.status?.state
    : event?.payload?.$case === 'statusUpdate'
      ? event.payload.value.status?.state
      : undefined;

/** The progress event of step `n`'s tool starting. */
const startOf = (n: number) => (event: StreamResponse) =>
  event.payload?.$case === 'statusUpdate' &&
  event.payload.value.status?.message?.metadata?.event === 'tool-started' &&
  event.payload.value.status?.message?.metadata?.step === n;

const consecutive = (positions: (number | undefined)[]) =>
  positions.every((position, i) => i === 0 || position === (positions[i - 1] ?? Number.NaN) + 1);

beforeEach(() => {
  prefix = `{test-streams-${randomUUID().slice(0, 8)}}`;
  hosts = [];
  factories = [];
  gate = gates();
});

afterEach(async () => {
  for (let n = 1; n <= STEPS; n++) gate.open(n);
  await Promise.all(factories.map((factory) => factory.close()));
  await Promise.all(hosts.map((host) => host.close({ graceMs: 2_000 })));
  const keys = await keysOf(redis, `${prefix}*`);
  if (keys.length > 0) await Promise.all(keys.map((key) => redis.unlink(key)));
});

describe('following a task from any replica', () => {
  it('a task running on A is followed from B, live, event by event, by several subscribers', async () => {
    const a = await replica();
    const b = await replica();
    const { own, taskId } = await startTask(await httpClient(a, 'JSONRPC', CUSTOMER));

    const subscribers = [
      collect((await httpClient(b, 'JSONRPC', CUSTOMER)).resubscribeTask({ tenant: '', id: taskId })),
      collect((await httpClient(b, 'HTTP+JSON', CUSTOMER)).resubscribeTask({ tenant: '', id: taskId })),
      collect((await httpClient(a, 'JSONRPC', CUSTOMER)).resubscribeTask({ tenant: '', id: taskId })),
    ];
    for (const subscriber of subscribers) await subscriber.until(1);
    // Each starts with the task as it is now: working on step 1.
    for (const { events } of subscribers) {
      expect(events[0]?.payload?.$case).toBe('task');
      expect(stateOf(events[0])).toBe(TaskState.TASK_STATE_WORKING);
    }
    // Live: with step 2 held, its start reaches every subscriber (the task cannot have ended).
    gate.open(1);
    await gate.reached(2);
    for (const subscriber of subscribers) await subscriber.until(startOf(2));
    expect(stateOf(own.events.at(-1))).toBe(TaskState.TASK_STATE_WORKING);
    for (let n = 2; n <= STEPS; n++) gate.open(n);
    await own.done;
    await Promise.all(subscribers.map((subscriber) => subscriber.done));

    expect(stateOf(own.events.at(-1))).toBe(TaskState.TASK_STATE_COMPLETED);
    for (const { events } of subscribers) {
      const positions = events.map(positionOf);
      expect(positions.every((position) => position !== undefined)).toBe(true);
      expect(consecutive(positions)).toBe(true);
      // After the snapshot, exactly what A's own stream sent from that point on.
      const after = events.slice(1).map(withoutPosition);
      expect(after.length).toBeGreaterThan(STEPS);
      expect(after).toEqual(own.events.slice(own.events.length - after.length).map(withoutPosition));
      expect(stateOf(events.at(-1))).toBe(TaskState.TASK_STATE_COMPLETED);
    }
    expect(subscribers[1]?.events.map(withoutPosition)).toEqual(subscribers[0]?.events.map(withoutPosition));

    // A finished task: the SDK's answer, from any replica.
    const late = (await httpClient(b, 'JSONRPC', CUSTOMER)).resubscribeTask({ tenant: '', id: taskId });
    await expect(collect(late).done).rejects.toThrow(/terminal state/);
  });

  it('the snapshot and the events after it make the task, nothing lost or twice, while the store lags', async () => {
    const a = await replica({ lagging: true });
    const b = await replica();
    const client = await httpClient(a, 'JSONRPC', CUSTOMER);
    const { own, taskId } = await startTask(client);
    const follower = await httpClient(b, 'HTTP+JSON', CUSTOMER);
    const whole = collect(follower.resubscribeTask({ tenant: '', id: taskId }));
    await whole.until(1);
    // Subscribe as each step starts, while A's saves of the events before it are still to come.
    const subscribers = [];
    for (let n = 1; n <= STEPS; n++) {
      gate.open(n);
      if (n < STEPS) {
        await gate.reached(n + 1);
        await whole.until(startOf(n + 1));
        const subscriber = collect(follower.resubscribeTask({ tenant: '', id: taskId }));
        await subscriber.until(1);
        subscribers.push(subscriber);
      }
    }
    await own.done;
    await whole.done;
    const finished = await client.getTask({ tenant: '', id: taskId });
    const historyIds = (task: Task) => task.history.map((message) => message.messageId);
    const atPosition = new Map(whole.events.map((event) => [positionOf(event), event]));
    for (const subscriber of subscribers) {
      await subscriber.done;
      const [snapshot, ...rest] = subscriber.events;
      if (snapshot?.payload?.$case !== 'task') throw new Error('no snapshot first');
      // The snapshot is the task as of its position: the status of the event there.
      const there = atPosition.get(positionOf(snapshot));
      expect(there?.payload?.$case === 'statusUpdate' ? there.payload.value.status : undefined).toEqual(
        snapshot.payload.value.status,
      );
      // Lines marked transient (a step starting) are streamed but not stored in the history.
      const stored = (message: Message | undefined) =>
        message !== undefined && message.metadata?.[TRANSIENT_KEY] !== true;
      const replayed = [
        ...historyIds(snapshot.payload.value),
        ...rest.flatMap((event) =>
          event.payload?.$case === 'statusUpdate' && stored(event.payload.value.status?.message)
            ? [event.payload.value.status?.message?.messageId ?? '']
            : [],
        ),
      ];
      expect(replayed).toEqual(historyIds(finished));
      expect(consecutive(subscriber.events.map(positionOf))).toBe(true);
    }
  });

  it('an SSE stream cut mid-way resumes with Last-Event-ID on another replica: no gap, no duplicate', async () => {
    const a = await replica();
    const b = await replica();
    const { own, taskId } = await startTask(await httpClient(a, 'JSONRPC', CUSTOMER));
    const whole = collect(
      (await httpClient(b, 'HTTP+JSON', CUSTOMER)).resubscribeTask({ tenant: '', id: taskId }),
    );
    await whole.until(1);

    let subscribed = () => {};
    const snapshotRead = new Promise<void>((resolve) => {
      subscribed = resolve;
    });
    const reading = readSse({ baseUrl: b.url, taskId, token: CUSTOMER, stopAfter: 3, onEvent: subscribed });
    await snapshotRead;
    gate.open(1);
    const cut = await reading;
    expect(cut[0]?.event.payload?.$case).toBe('task');
    expect(cut.map((event) => event.id)).toEqual(cut.map((event) => String(positionOf(event.event))));
    // Events go on while the client is away.
    gate.open(2);
    await gate.reached(3);
    await whole.until(startOf(3));
    gate.open(3);
    const resumed = await readSse({
      baseUrl: a.url,
      taskId,
      token: CUSTOMER,
      lastEventId: cut.at(-1)?.id ?? '',
    });
    await own.done;
    await whole.done;

    const ids = [...cut, ...resumed].map((event) => Number(event.id));
    expect(consecutive(ids)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    // Each event as an uninterrupted subscriber got it at the same position, up to the last one.
    const atPosition = new Map(whole.events.map((event) => [positionOf(event), withoutPosition(event)]));
    for (const { id, event } of [...cut.slice(1), ...resumed]) {
      expect(withoutPosition(event)).toEqual(atPosition.get(Number(id)));
    }
    expect(Number(resumed.at(-1)?.id)).toBe(positionOf(whole.events.at(-1)));
    expect(stateOf(resumed.at(-1)?.event)).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('resumes over the queue binding from the same position', async () => {
    const a = await replica();
    await replica();
    const { own, taskId } = await startTask(await httpClient(a, 'JSONRPC', SERVICE));
    const queued = await queueClient(a);
    const options = { serviceParameters: { authorization: `Bearer ${SERVICE}` } };
    const whole = collect(queued.resubscribeTask({ tenant: '', id: taskId }, options));
    await whole.until(1);
    const from = positionOf(whole.events[0]);
    if (from === undefined) throw new Error('no position on the snapshot');
    for (let n = 1; n <= STEPS; n++) gate.open(n);
    await own.done;
    await whole.done;
    // From the snapshot's own position: every event after it, none before, as the whole stream had them.
    const resumed = collect(
      queued.resubscribeTask(
        { tenant: '', id: taskId },
        { serviceParameters: { ...options.serviceParameters, 'Last-Event-ID': String(from + 1) } },
      ),
    );
    await resumed.done;
    expect(resumed.events.map(positionOf)[0]).toBe(from + 2);
    expect(resumed.events.map(withoutPosition)).toEqual(whole.events.slice(2).map(withoutPosition));
  });

  it('a position older than what the stream still holds gets the task as it is, then the events live', async () => {
    const a = await replica();
    const b = await replica();
    const { own, taskId } = await startTask(await httpClient(a, 'JSONRPC', CUSTOMER));
    gate.open(1);
    await gate.reached(2);
    // Trim the stream as MAXLEN would: the first events are gone.
    const key = `${prefix}:task-events:${taskId}`;
    const last = await redis.xrevrange(key, '+', '-', 'COUNT', 1);
    const lastPosition = Number(last[0]?.[0].split('-')[1]);
    await redis.xtrim(key, 'MINID', `0-${lastPosition - 1}`);
    // For a client that cannot set the header: the query parameter.
    const reading = readSse({
      baseUrl: b.url,
      taskId,
      token: CUSTOMER,
      query: '?lastEventId=1',
      stopAfter: 1,
    });
    const [snapshot] = await reading;
    // A position that is not one is the caller's mistake.
    await expect(readSse({ baseUrl: b.url, taskId, token: CUSTOMER, lastEventId: 'soon' })).rejects.toThrow(
      /400.*Last-Event-ID/,
    );
    expect(snapshot?.event.payload?.$case).toBe('task');
    expect(Number(snapshot?.id)).toBe(lastPosition);
    const resumed = readSse({ baseUrl: b.url, taskId, token: CUSTOMER, lastEventId: snapshot?.id ?? '' });
    for (let n = 2; n <= STEPS; n++) gate.open(n);
    const rest = await resumed;
    await own.done;
    expect(consecutive([Number(snapshot?.id), ...rest.map((event) => Number(event.id))])).toBe(true);
    expect(stateOf(rest.at(-1)?.event)).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('a replica that closes ends its followers, and leaves no connection behind', async () => {
    const a = await replica();
    const b = await replica();
    const { own, taskId } = await startTask(await httpClient(a, 'JSONRPC', CUSTOMER));
    const followers = async () =>
      String(await redis.client('LIST'))
        .split('\n')
        .filter((line: string) => line.includes(`name=${prefix}:task-events-reader`)).length;
    const follower = collect(
      (await httpClient(b, 'JSONRPC', CUSTOMER)).resubscribeTask({ tenant: '', id: taskId }),
    );
    await follower.until(1);
    while ((await followers()) === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await b.close();
    await follower.done;
    expect(await followers()).toBe(0);
    for (let n = 1; n <= STEPS; n++) gate.open(n);
    await own.done;
  });

  it('a new task is out once, already working; its steps are streamed, its tools stored, their facts on the messages', async () => {
    const a = await replica();
    const client = await httpClient(a, 'JSONRPC', CUSTOMER);
    const { own, taskId } = await startTask(client);
    for (let n = 1; n <= STEPS; n++) gate.open(n);
    await own.done;
    // One task event, already working with its first line: no submitted state, no second event for it.
    expect(own.events.filter((event) => event.payload?.$case === 'task')).toHaveLength(1);
    expect(stateOf(own.events[0])).toBe(TaskState.TASK_STATE_WORKING);
    const lines = own.events.flatMap((event) =>
      event.payload?.$case === 'statusUpdate' && event.payload.value.status?.message
        ? [event.payload.value.status.message]
        : [],
    );
    const textOf = (message: Message) =>
      message.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
    expect(lines.map(textOf)).toContain('Step 1: thinking');
    expect(lines.find((line) => textOf(line) === 'Step 1: running step')?.metadata).toMatchObject({
      event: 'tool-started',
      step: 1,
      tool: 'step',
    });
    const stored = await client.getTask({ tenant: '', id: taskId });
    const history = stored.history.map(textOf);
    expect(history.filter((line) => line.includes('thinking'))).toEqual([]);
    expect(history).toContain('Step 1: running step');
    expect(history).toContain('Step 3: step succeeded');
    // The task's own metadata is the executor's (conversation, principal): no progress facts piled up.
    expect(Object.keys(stored.metadata ?? {}).filter((key) => !key.startsWith('switchboard.'))).toEqual([]);
  });

  it("refuses someone else's task as GetTask does, on every replica", async () => {
    const a = await replica();
    const b = await replica();
    const { own, taskId } = await startTask(await httpClient(a, 'JSONRPC', CUSTOMER));
    for (const host of [a, b]) {
      const intruder = await httpClient(host, 'JSONRPC', OTHER_CUSTOMER);
      const refusal = await intruder.getTask({ tenant: '', id: taskId }).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(Error);
      const subscription = collect(intruder.resubscribeTask({ tenant: '', id: taskId }));
      const error = await subscription.done.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf((refusal as Error).constructor);
      expect((error as Error).message).toBe((refusal as Error).message);
      expect(subscription.events).toEqual([]);
      const raw = await readSse({ baseUrl: host.url, taskId, token: OTHER_CUSTOMER, lastEventId: '1' }).catch(
        (caught: unknown) => caught,
      );
      expect(String(raw)).toMatch(/404/);
    }
    for (let n = 1; n <= STEPS; n++) gate.open(n);
    await own.done;
  });
});

describe('streams are bounded', () => {
  /** A task of the refunds agent, stopped to wait for the approval of its refund. */
  async function waitingTask(client: Client): Promise<Task> {
    const task = await client.sendMessage(sendRequest(userMessage('Refund order A00001, please.')));
    if (!('status' in task) || task.status?.state !== TaskState.TASK_STATE_INPUT_REQUIRED) {
      throw new Error('the task does not wait for an approval');
    }
    return task;
  }

  /** A subscription the test can close, as a client going away does. */
  function subscription(client: Client, taskId: string) {
    const controller = new AbortController();
    const stream = collect(client.resubscribeTask({ tenant: '', id: taskId }, { signal: controller.signal }));
    return { ...stream, close: () => controller.abort() };
  }

  it('a user holds at most 10 streams, across replicas; the next is refused saying so, a closed one frees its place', async () => {
    const a = await replica({ refunds: true });
    const b = await replica({ refunds: true });
    const onA = await httpClient(a, 'JSONRPC', CUSTOMER);
    const onB = await httpClient(b, 'HTTP+JSON', CUSTOMER);
    const task = await waitingTask(onA);
    const open = [
      ...Array.from({ length: 5 }, () => subscription(onA, task.id)),
      ...Array.from({ length: 5 }, () => subscription(onB, task.id)),
    ];
    for (const stream of open) await stream.until(1);

    // The eleventh, on either replica and binding: refused, with the count and the limit.
    const eleventh = subscription(onA, task.id);
    const refused = await eleventh.until(1).then(
      () => 'opened',
      (error: unknown) => error,
    );
    eleventh.close();
    expect(String((refused as Error).message)).toMatch(/10 streams open.*the limit is 10/);
    const raw = await readSse({ baseUrl: b.url, taskId: task.id, token: CUSTOMER }).catch(
      (error: unknown) => error,
    );
    expect(String(raw)).toMatch(/429.*10 streams open/);
    // Another user's streams are theirs: not counted against this one (their own task).
    const other = await httpClient(b, 'JSONRPC', OTHER_CUSTOMER);
    const theirs = subscription(other, (await waitingTask(other)).id);
    await theirs.until(1);
    theirs.close();

    // A stream the client closes gives its place back.
    open[0]?.close();
    let again: ReturnType<typeof subscription> | undefined;
    for (let attempt = 0; attempt < 25 && !again; attempt++) {
      const next = subscription(onB, task.id);
      const first = await next.until(1).then(
        () => true,
        () => false,
      );
      if (first) again = next;
      else await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(again?.events[0]?.payload?.$case).toBe('task');
    for (const stream of [...open, ...(again ? [again] : [])]) stream.close();
  });

  it("a replica's Redis connections stay the same whatever the number of open streams", async () => {
    const connection = testRedis({ connectionName: `${prefix}:service` });
    try {
      const a = await replica({ refunds: true, connection, limits: { users: { maxOpenStreams: 50 } } });
      const client = await httpClient(a, 'JSONRPC', CUSTOMER);
      const tasks = [await waitingTask(client), await waitingTask(client), await waitingTask(client)];
      /** The replica's connections (all named after its prefix), once their number has settled. */
      const settled = async () => {
        let count = await connectionsNamed(redis, prefix);
        for (let same = 0; same < 3; ) {
          await new Promise((resolve) => setTimeout(resolve, 150));
          const now = await connectionsNamed(redis, prefix);
          same = now === count ? same + 1 : 0;
          count = now;
        }
        return count;
      };
      const first = subscription(client, tasks[0]?.id ?? '');
      await first.until(1);
      const withOne = await settled();
      const more = Array.from({ length: 29 }, (_, i) => subscription(client, tasks[i % 3]?.id ?? ''));
      for (const stream of more) await stream.until(1);
      const withThirty = await settled();
      expect({ withThirty }).toEqual({ withThirty: withOne });
      for (const stream of [first, ...more]) stream.close();
      await a.close();
    } finally {
      await connection.quit();
    }
  });

  it('a stream with nothing to send for the idle time ends with the task as it stands, cleanly for the SDK client; Last-Event-ID gets what came after', async () => {
    const a = await replica({ followerIdleMs: 1_500, blockMs: 250 });
    const b = await replica({ followerIdleMs: 1_500, blockMs: 250 });
    const { own, taskId } = await startTask(await httpClient(a, 'JSONRPC', CUSTOMER));
    // Step 1 is held: the task works on, silently. Each SDK client's stream ends, without an error.
    for (const binding of ['JSONRPC', 'HTTP+JSON'] as const) {
      const followed = collect(
        (await httpClient(b, binding, CUSTOMER)).resubscribeTask({ tenant: '', id: taskId }),
      );
      await followed.done;
      const [snapshot, ...rest] = followed.events;
      const end = rest.at(-1);
      expect(end?.payload?.$case).toBe('statusUpdate');
      expect(stateOf(end)).toBe(TaskState.TASK_STATE_WORKING);
      expect(end?.payload?.value.metadata?.[STREAM_END_KEY]).toBe('idle');
      expect(positionOf(end)).toBe(positionOf(snapshot));
    }
    // Over SSE the end carries the id to resume from; what comes while the client is away is kept.
    const cut = await readSse({ baseUrl: b.url, taskId, token: CUSTOMER });
    const resumeFrom = cut.at(-1)?.id;
    expect(resumeFrom).toBe(String(positionOf(cut[0]?.event)));
    for (let n = 1; n <= STEPS; n++) gate.open(n);
    await own.done;
    const resumed = await readSse({ baseUrl: a.url, taskId, token: CUSTOMER, lastEventId: resumeFrom ?? '' });
    const ids = resumed.map((event) => Number(event.id));
    expect(ids[0]).toBe(Number(resumeFrom) + 1);
    expect(consecutive(ids)).toBe(true);
    expect(resumed.map((event) => withoutPosition(event.event))).toEqual(
      own.events.slice(own.events.length - resumed.length).map(withoutPosition),
    );
    expect(stateOf(resumed.at(-1)?.event)).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('a stream of a task waiting for an approval ends after the idle time too, v0.3 tasks/resubscribe included', async () => {
    const a = await replica({ refunds: true, followerIdleMs: 1_500, blockMs: 250 });
    const client = await httpClient(a, 'JSONRPC', CUSTOMER);
    const task = await waitingTask(client);
    const followed = collect(client.resubscribeTask({ tenant: '', id: task.id }));
    await followed.done;
    expect(stateOf(followed.events.at(-1))).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(followed.events.at(-1)?.payload?.value.metadata?.[STREAM_END_KEY]).toBe('idle');
    // v0.3 (no A2A-Version header): the same end, as a v0.3 status update.
    const response = await fetch(`${a.url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { authorization: `Bearer ${CUSTOMER}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/resubscribe', params: { id: task.id } }),
    });
    const lines = (await response.text()).split('\n').filter((line) => line.startsWith('data: '));
    const last = JSON.parse(lines.at(-1)?.slice('data: '.length) ?? '{}');
    expect(last.result).toMatchObject({ kind: 'status-update', status: { state: 'input-required' } });
    expect(last.result.metadata?.[STREAM_END_KEY]).toBe('idle');
  });
});
