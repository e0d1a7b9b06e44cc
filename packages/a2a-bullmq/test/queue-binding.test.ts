import { createHmac, randomUUID } from 'node:crypto';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { StreamResponse, Task } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import { type Client, ClientFactory } from '@a2a-js/sdk/client';
import {
  JsonRpcPushNotificationNotSupportedError,
  JsonRpcTaskNotFoundError,
  PushNotificationNotSupportedError,
  TaskNotFoundError,
} from '@a2a-js/sdk/errors';
import {
  type A2ARequestHandler,
  DefaultRequestHandler,
  InMemoryTaskStore,
  ServerCallContext,
  STATE_HEADERS_KEY,
} from '@a2a-js/sdk/server';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  A2aQueueServer,
  createRedisConnection,
  isQueueBindingError,
  type JobEnvelope,
  type QueueAuthenticator,
  QueueBindingError,
  type QueueDelivery,
  type QueueLogger,
  QueueTransportFactory,
  queueDeliveryOf,
  ReplyInbox,
} from '../src/index.ts';
import { EchoExecutor, echoCard, sendRequest, userMessage } from './support/echo-agent.ts';
import { keysOf, serversOf, testRedis } from './support/redis.ts';

const redis = testRedis();
afterAll(() => redis.quit());

const silent = { warn: () => {}, error: () => {} };

let prefix: string;
let address: { queue: string; prefix: string };
let server: A2aQueueServer;
let factory: QueueTransportFactory;
let client: Client;

async function setup({
  delayMs = 20,
  authenticate,
  decorate = (handler) => handler,
  logger = silent,
}: {
  /** The server's logger. */
  logger?: QueueLogger;
  delayMs?: number;
  authenticate?: QueueAuthenticator;
  /** Wraps the SDK's request handler, as a delivery policy would. */
  decorate?: (handler: A2ARequestHandler) => A2ARequestHandler;
} = {}) {
  const card = echoCard(address);
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new EchoExecutor({ delayMs }));
  server = new A2aQueueServer({
    requestHandler: decorate(handler),
    card,
    address,
    redis,
    logger,
    ...(authenticate ? { authenticate } : {}),
  });
  await server.start();
  // The inbox is named after the test, so the reply-path tests find (and kill) only their own reader.
  factory = new QueueTransportFactory({
    redis,
    timeoutMs: 10_000,
    namespace: inboxNamespace,
    logger: silent,
  });
  client = await new ClientFactory({ transports: [factory] }).createFromAgentCard(card);
  return { card };
}

let inboxNamespace = '';
beforeEach(() => {
  prefix = `{test:${randomUUID()}}`;
  inboxNamespace = `test-inbox-${randomUUID()}`;
  address = { queue: 'echo', prefix };
});

afterEach(async () => {
  await factory?.close();
  await server?.close({ graceMs: 2_000 });
  const keys = await keysOf(redis, `${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
});

async function collect(stream: AsyncIterable<StreamResponse>) {
  const events: StreamResponse[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const answerOf = (task: Task) => {
  const content = task.artifacts[0]?.parts[0]?.content;
  return content?.$case === 'text' ? content.value : undefined;
};

describe('the BullMQ binding, through the SDK client', () => {
  it('streams a task in order: task, working updates, the answer artifact, completed; then ends', async () => {
    await setup();
    const events = await collect(client.sendMessageStream(sendRequest(userMessage('Where is A10086?'))));
    const kinds = events.map((event) => event.payload?.$case);
    expect(kinds[0]).toBe('task');
    expect(kinds.at(-1)).toBe('statusUpdate');
    const last = events.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const texts = events.flatMap((event) =>
      event.payload?.$case === 'statusUpdate'
        ? (event.payload.value.status?.message?.parts ?? []).map((part) =>
            part.content?.$case === 'text' ? part.content.value : '',
          )
        : [],
    );
    expect(texts).toEqual(['Step 1: listening']);
    const artifact = events.find((event) => event.payload?.$case === 'artifactUpdate')?.payload;
    const answer =
      artifact?.$case === 'artifactUpdate' ? artifact.value.artifact?.parts[0]?.content : undefined;
    expect(answer?.$case === 'text' && answer.value).toBe('someone said: Where is A10086?');
  });

  it('gets, lists and cancels tasks', async () => {
    await setup({ delayMs: 60_000 });
    const running = (await client.sendMessage(sendRequest(userMessage('A10002?'), true))) as Task;
    const fetched = await client.getTask({ tenant: '', id: running.id });
    expect(fetched.id).toBe(running.id);
    const listed = await client.listTasks({
      tenant: '',
      contextId: running.contextId,
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageToken: '',
      statusTimestampAfter: undefined,
    });
    expect(listed.tasks.map((task) => task.id)).toEqual([running.id]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const canceled = await client.cancelTask({ tenant: '', id: running.id, metadata: {} });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('raises the same SDK error as JSON-RPC over HTTP: GetTask of an unknown id', async () => {
    await setup();
    const error = await client.getTask({ tenant: '', id: 'no-such-task' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(JsonRpcTaskNotFoundError);
  });

  it('times out a call nobody serves, with a clear error, and leaves no waiter behind', async () => {
    const { card } = await setup();
    // Bounded as afterEach bounds it: a worker that has just started can take the whole default grace
    // (30 s, the test's own timeout) to close on a Redis Cluster under load; that is close's promise,
    // not what this test is about.
    await server.close({ graceMs: 2_000 });
    const quick = new QueueTransportFactory({ redis, timeoutMs: 300, logger: silent });
    const lonely = await new ClientFactory({ transports: [quick] }).createFromAgentCard(card);
    const error = await lonely.getTask({ tenant: '', id: 'x' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(QueueBindingError);
    expect(isQueueBindingError(error, 'TIMEOUT')).toBe(true);
    expect((error as QueueBindingError).message).toContain(
      'read the task with GetTask before sending it again',
    );
    expect(quick.pendingReplies).toBe(0);
    await quick.close();
  });
});

describe('the reply path', () => {
  it('loses nothing when the caller’s connection drops while a reply is on its way', async () => {
    await setup({ delayMs: 800 });
    const pending = client.sendMessage(sendRequest(userMessage('A60006?'))) as Promise<Task>;
    await new Promise((resolve) => setTimeout(resolve, 200));
    // On a cluster the reader holds a connection to each master it has talked to: drop them all.
    let dropped = 0;
    for (const server of serversOf(redis)) {
      const clients = String(await server.client('LIST'));
      for (const line of clients
        .split('\n')
        .filter((entry) => entry.includes(`name=${inboxNamespace}:reply:`))) {
        await server.client('KILL', 'ID', /id=(\d+)/.exec(line)?.[1] ?? '');
        dropped++;
      }
    }
    expect(dropped).toBeGreaterThan(0);
    const task = await pending;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('a caller that lost its stream resubscribes and sees the task through to the end', async () => {
    await setup({ delayMs: 600 });
    const controller = new AbortController();
    const stream = client.sendMessageStream(sendRequest(userMessage('A70007?')), {
      signal: controller.signal,
    });
    const first = await stream.next();
    const task = first.value?.payload?.$case === 'task' ? first.value.payload.value : undefined;
    if (!task) throw new Error('the stream did not start with the task');
    controller.abort();
    await stream.return(undefined);
    const events = await collect(client.resubscribeTask({ tenant: '', id: task.id }));
    expect(events[0]?.payload?.$case).toBe('task');
    const last = events.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('answers push-notification methods with the proper "not supported" error', async () => {
    await setup();
    const config = {
      tenant: '',
      id: '',
      taskId: 'x',
      url: 'https://example.test/hook',
      token: '',
      authentication: undefined,
    };
    // The SDK client refuses from the card alone; the server, asked directly, says the same.
    await expect(async () => client.createTaskPushNotificationConfig(config)).rejects.toBeInstanceOf(
      PushNotificationNotSupportedError,
    );
    const fromServer = await client.transport
      .createTaskPushNotificationConfig(config, { serviceParameters: { 'A2A-Version': '1.0' } })
      .catch((caught: unknown) => caught);
    expect(fromServer).toBeInstanceOf(JsonRpcPushNotificationNotSupportedError);
  });
});

describe('poison messages', () => {
  async function raw(envelope: Partial<JobEnvelope> | Record<string, unknown>, name = 'SendMessage') {
    const queue = new Queue(address.queue, { connection: redis, prefix });
    const inbox = new ReplyInbox({ redis, logger: silent });
    const requestId = randomUUID();
    const subscription = inbox.open(requestId);
    const job = await queue.add(name, {
      v: 1,
      requestId,
      replyTo: inbox.key,
      serviceParameters: { 'a2a-version': '1.0' },
      ...envelope,
    });
    try {
      const frame = await subscription.next({ timeoutMs: 3_000 });
      return { job, reply: JSON.parse(frame.body ?? '{}') as { error?: { code: number; message: string } } };
    } catch (error) {
      return { job, error };
    } finally {
      await inbox.close();
      await queue.close();
    }
  }

  const getTask = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } });
  it.each([
    { label: 'not JSON', envelope: { request: '{"jsonrpc":' }, code: -32700 },
    {
      label: 'an unknown method',
      envelope: { request: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'DropTables', params: {} }) },
      code: -32601,
    },
    {
      label: 'no version (read as 0.3)',
      envelope: { serviceParameters: {}, request: getTask },
      code: -32009,
    },
    {
      label: 'a wrong version',
      envelope: { serviceParameters: { 'a2a-version': '9.9' }, request: getTask },
      code: -32009,
    },
    {
      label: 'an oversized request',
      envelope: {
        request: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: { big: 'x'.repeat(1_100_000) },
        }),
      },
      code: -32600,
    },
    {
      label: 'not JSON-RPC (malformed request)',
      envelope: { request: JSON.stringify({ hello: 'world' }) },
      code: -32602,
    },
  ])('$label is answered with error $code and the worker keeps serving', async ({ envelope, code }) => {
    await setup();
    const { reply } = await raw(envelope);
    expect(reply?.error?.code).toBe(code);
    const task = (await client.sendMessage(sendRequest(userMessage('A30003?')))) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('a job whose reply cannot be written is retried with backoff, a bounded number of times', async () => {
    await setup();
    const queue = new Queue(address.queue, { connection: redis, prefix });
    const replyTo = `${prefix}:not-a-stream`;
    await redis.set(replyTo, 'a plain string: XADD fails with WRONGTYPE');
    const request = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } });
    const job = await queue.add(
      'GetTask',
      { v: 1, requestId: 'r-1', replyTo, serviceParameters: { 'a2a-version': '1.0' }, request },
      { attempts: 3, backoff: { type: 'exponential', delay: 50 } },
    );
    for (let i = 0; i < 100 && !(await job.isFailed()); i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const failed = await queue.getJob(job.id ?? '');
    expect(failed?.attemptsMade).toBe(3);
    expect(failed?.failedReason).toContain('WRONGTYPE');
    await queue.close();
  });

  it('a job that is not an envelope at all is recorded as failed, and the worker keeps serving', async () => {
    await setup();
    const queue = new Queue(address.queue, { connection: redis, prefix });
    const job = await queue.add('junk', { hello: 'world' });
    for (let i = 0; i < 50 && !(await job.isFailed()); i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const failed = await queue.getJob(job.id ?? '');
    expect(failed?.failedReason).toMatch(/Not a Switchboard A2A job envelope \(v: .*requestId/);
    await queue.close();
    const task = (await client.sendMessage(sendRequest(userMessage('A30004?')))) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });
});

describe('what a request handler sees', () => {
  it('the job that brought each request and how long it waited, through queueDeliveryOf; nothing for a call that did not come by queue', async () => {
    const seen: (QueueDelivery | undefined)[] = [];
    await setup({
      decorate: (handler) =>
        Object.assign(Object.create(handler) as A2ARequestHandler, {
          sendMessage: (params: Parameters<A2ARequestHandler['sendMessage']>[0], call: ServerCallContext) => {
            seen.push(queueDeliveryOf(call));
            return handler.sendMessage(params, call);
          },
        }),
    });
    await client.sendMessage(sendRequest(userMessage('one')));
    await client.sendMessage(sendRequest(userMessage('two')));
    const [first, second] = seen;
    expect(first?.queue).toBe(address.queue);
    expect(first?.jobId).not.toBe(second?.jobId);
    const queue = new Queue(address.queue, { connection: redis, prefix });
    try {
      const job = await queue.getJob(first?.jobId ?? '');
      expect(job?.name).toBe('SendMessage');
      // How long it waited on the queue: from added to taken, as BullMQ stamped them.
      expect(first?.queueWaitMs).toBe((job?.processedOn ?? Number.NaN) - (job?.timestamp ?? 0));
    } finally {
      await queue.close();
    }
    expect(queueDeliveryOf(new ServerCallContext())).toBeUndefined();
  });

  it('the service parameters, by lower-case name, where the SDK keeps HTTP headers (STATE_HEADERS_KEY)', async () => {
    const seen: unknown[] = [];
    await setup({
      decorate: (handler) =>
        Object.assign(Object.create(handler) as A2ARequestHandler, {
          getTask: (params: Parameters<A2ARequestHandler['getTask']>[0], call: ServerCallContext) => {
            seen.push(call.state.get(STATE_HEADERS_KEY));
            return handler.getTask(params, call);
          },
        }),
    });
    const task = (await client.sendMessage(sendRequest(userMessage('one')))) as Task;
    await client.getTask({ tenant: '', id: task.id }, { serviceParameters: { 'Last-Event-ID': '7' } });
    expect(seen).toEqual([expect.objectContaining({ 'last-event-id': '7' })]);
  });

  it('a handler that answers first and works on keeps the job active until the work is done', async () => {
    let finish = () => {};
    const work = new Promise<void>((resolve) => {
      finish = resolve;
    });
    let jobId = '';
    await setup({
      decorate: (handler) =>
        Object.assign(Object.create(handler) as A2ARequestHandler, {
          sendMessage: async (
            params: Parameters<A2ARequestHandler['sendMessage']>[0],
            call: ServerCallContext,
          ) => {
            const delivery = queueDeliveryOf(call);
            jobId = delivery?.jobId ?? '';
            delivery?.keepActiveUntil(work);
            return handler.sendMessage(params, call);
          },
        }),
    });
    const answered = (await client.sendMessage(sendRequest(userMessage('detached')))) as Task;
    expect(answerOf(answered)).toBeDefined();
    const queue = new Queue(address.queue, { connection: redis, prefix });
    try {
      // Long after an answered job would have completed, it is still held.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await queue.getJobState(jobId), 'answered, still held').toBe('active');
      finish();
      let state = await queue.getJobState(jobId);
      for (let i = 0; i < 100 && state === 'active'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        state = await queue.getJobState(jobId);
      }
      expect(state).toBe('completed');
    } finally {
      await queue.close();
    }
  });

  it('the user its authenticate option found in the service parameters; a request it finds none for is refused', async () => {
    const authenticate: QueueAuthenticator = ({ serviceParameters }) =>
      serviceParameters.authorization === 'Bearer ada-0123456789'
        ? { isAuthenticated: true, userName: 'ada' }
        : undefined;
    await setup({ authenticate });
    const task = (await client.sendMessage(sendRequest(userMessage('hi')), {
      serviceParameters: { Authorization: 'Bearer ada-0123456789' },
    })) as Task;
    expect(answerOf(task)).toBe('ada said: hi');
    const refused = await client
      .sendMessage(sendRequest(userMessage('hi')), { serviceParameters: { Authorization: 'Bearer nobody' } })
      .catch((caught: unknown) => caught);
    expect((refused as Error).message).toContain('Unauthenticated');
  });

  it('credentials bound to one request: the client hook signs the exact text the worker authenticates, with the job id', async () => {
    const secret = randomUUID();
    const mac = (request: string) => createHmac('sha256', secret).update(request).digest('base64url');
    const presented: { request: string; jobId: string | undefined }[] = [];
    const authenticate: QueueAuthenticator = ({ serviceParameters, request, jobId }) => {
      presented.push({ request, jobId });
      return serviceParameters.authorization === `Mac ${mac(request)}`
        ? { isAuthenticated: true, userName: 'signed' }
        : undefined;
    };
    const { card } = await setup({ authenticate });
    const signed = new QueueTransportFactory({
      redis,
      timeoutMs: 10_000,
      namespace: inboxNamespace,
      logger: silent,
      serviceParameters: ({ agent, request, serviceParameters, context }) => {
        expect(agent).toBe(card.name);
        expect(context).toBeUndefined();
        return { ...serviceParameters, Authorization: `Mac ${mac(request)}` };
      },
    });
    try {
      const signedClient = await new ClientFactory({ transports: [signed] }).createFromAgentCard(card);
      const task = (await signedClient.sendMessage(sendRequest(userMessage('hi')))) as Task;
      expect(answerOf(task)).toBe('signed said: hi');
      const [first] = presented;
      const queue = new Queue(address.queue, { connection: redis, prefix });
      try {
        const job = await queue.getJob(first?.jobId ?? '');
        const envelope = job?.data as JobEnvelope;
        expect(envelope.request).toBe(first?.request);
        expect(envelope.serviceParameters.authorization).toBe(`Mac ${mac(envelope.request)}`);
        // The same authorization on another request is refused: it was made over the first one's text.
        const refused = await client
          .sendMessage(sendRequest(userMessage('forged')), {
            serviceParameters: { Authorization: envelope.serviceParameters.authorization ?? '' },
          })
          .catch((caught: unknown) => caught);
        expect((refused as Error).message).toContain('Unauthenticated');
      } finally {
        await queue.close();
      }
    } finally {
      await signed.close();
    }
  });

  it('a stream that fails ends with the SDK error, as over HTTP: SubscribeToTask of an unknown task', async () => {
    const logged: Record<string, unknown>[] = [];
    const keep = (fields: Record<string, unknown>, msg: string) => {
      logged.push({ ...fields, msg });
    };
    await setup({ logger: { warn: keep, error: keep } });
    const error = await collect(client.resubscribeTask({ tenant: '', id: 'no-such-task' })).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(TaskNotFoundError);
    // The refusal is one line that says why, without the error's stack.
    expect(logged).toEqual([
      expect.objectContaining({ msg: 'stream ended with an error', reason: 'TaskNotFoundError' }),
    ]);
    expect(JSON.stringify(logged)).not.toMatch(/"err"|\bat .+:\d+:\d+/);
    const task = (await client.sendMessage(sendRequest(userMessage('still here?')))) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });
});

describe('options', () => {
  it('are checked before anything starts, with what to pass instead', () => {
    const card = echoCard({ queue: 'echo', prefix: '{x}' });
    const make = () =>
      new A2aQueueServer({
        requestHandler: {} as A2ARequestHandler,
        card,
        address: { queue: 'echo', prefix: '' },
        redis,
      });
    expect(make).toThrow(QueueBindingError);
    expect(make).toThrow(/requestHandler must be an A2A request handler.*address must name the queue/);
  });
});

describe('connections', () => {
  it('the client enqueues on its own duplicate, so BullMQ’s scripts stay off the caller’s connection', async () => {
    const { card } = await setup();
    const callers = testRedis();
    const own = new QueueTransportFactory({ redis: callers, logger: silent, namespace: inboxNamespace });
    try {
      const ownClient = await new ClientFactory({ transports: [own] }).createFromAgentCard(card);
      const task = (await ownClient.sendMessage(sendRequest(userMessage('hello')))) as Task;
      expect(answerOf(task)).toBeDefined();
      const scripts = (callers as unknown as { scriptsSet?: Record<string, unknown> }).scriptsSet ?? {};
      expect(Object.keys(scripts)).toEqual([]);
    } finally {
      await own.close();
      await callers.quit();
    }
  });
});

/** A port nothing listens on (yet). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Redis coming back: a TCP relay on `port` to the test's Redis node. */
async function relayTo(port: number, target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  const relay: Server = createServer((socket) => {
    const upstream = createConnection(target);
    for (const end of [socket, upstream]) {
      sockets.add(end);
      end.on('error', () => {});
      end.on('close', () => sockets.delete(end));
    }
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((resolve) => relay.listen(port, '127.0.0.1', resolve));
  return async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => relay.close(resolve));
  };
}

describe('while Redis is unreachable', () => {
  // The relay stands in for one Redis node; a cluster would redirect the client past it.
  it.skipIf(Boolean(process.env.REDIS_CLUSTER_NODES))(
    'a call fails within its timeout, saying so; close does not wait; once Redis is back, its job is withdrawn',
    { timeout: 20_000 },
    async () => {
      const port = await freePort();
      const down = createRedisConnection({ url: `redis://127.0.0.1:${port}` });
      down.on('error', () => {});
      const quick = new QueueTransportFactory({ redis: down, timeoutMs: 300, logger: silent });
      const lonely = await new ClientFactory({ transports: [quick] }).createFromAgentCard(echoCard(address));
      let stopRelay: (() => Promise<void>) | undefined;
      try {
        const error = await lonely.getTask({ tenant: '', id: 'x' }).catch((caught: unknown) => caught);
        expect(isQueueBindingError(error, 'REDIS_UNAVAILABLE')).toBe(true);
        expect((error as QueueBindingError).message).toContain(
          'Redis did not take the job within 300 ms; check that Redis is reachable',
        );
        expect(quick.pendingReplies).toBe(0);

        // Redis comes back: the queued job lands, and is withdrawn before any worker is there to run it.
        const { host, port: redisPort } = (redis as Redis).options;
        stopRelay = await relayTo(port, { host: host ?? '127.0.0.1', port: redisPort ?? 6379 });
        const events = `${address.prefix}:${address.queue}:events`;
        const seen = async () =>
          ((await redis.xrange(events, '-', '+')) as [string, string[]][]).map(([, fields]) => fields[1]);
        let names = await seen();
        for (let wait = 0; wait < 150 && !names.includes('removed'); wait++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          names = await seen();
        }
        expect(names).toEqual(['added', 'waiting', 'removed']);
        const queue = new Queue(address.queue, { connection: redis, prefix: address.prefix });
        const counts = await queue.getJobCounts();
        await queue.close();
        expect(Object.values(counts).every((count) => count === 0)).toBe(true);
      } finally {
        await quick.close();
        down.disconnect();
        await stopRelay?.();
      }
    },
  );

  it('close returns while Redis is still unreachable', { timeout: 20_000 }, async () => {
    const down = createRedisConnection({ url: `redis://127.0.0.1:${await freePort()}` });
    down.on('error', () => {});
    const quick = new QueueTransportFactory({ redis: down, timeoutMs: 300, logger: silent });
    const lonely = await new ClientFactory({ transports: [quick] }).createFromAgentCard(echoCard(address));
    await lonely.getTask({ tenant: '', id: 'x' }).catch(() => {});
    await quick.close();
    expect(quick.pendingReplies).toBe(0);
    down.disconnect();
  });
});
