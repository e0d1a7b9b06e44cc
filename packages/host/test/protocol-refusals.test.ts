import { randomUUID } from 'node:crypto';
import { defineAgent } from '@switchboard/agent';
import { MemoryLogger, ScriptedModel } from '@switchboard/agent/testing';
import { Queue } from 'bullmq';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type AgentHost, type HostLimits, hostAgent } from '../src/index.ts';
import { removeKeysUnder, testRedis } from './support/redis.ts';

const redis = testRedis();
const prefixes: string[] = [];
const hosts: AgentHost[] = [];
const queues: Queue[] = [];

afterEach(async () => {
  await Promise.all(queues.splice(0).map((queue) => queue.close()));
  await Promise.all(hosts.splice(0).map((host) => host.close({ graceMs: 0 })));
});
afterAll(async () => {
  await removeKeysUnder(redis, prefixes);
  await redis.quit();
});

const TOKEN = 'cust-9Qm2xT7vLk4pR8sW1zYb';

/** An agent over HTTP (a user token) and its queue, on Redis under a prefix of its own. */
async function host({ limits, auth = true }: { limits?: Omit<HostLimits, 'counters'>; auth?: boolean } = {}) {
  const prefix = `{refusals-test-${randomUUID().slice(0, 8)}}`;
  prefixes.push(prefix);
  const model = new ScriptedModel({ turns: [], whenExhausted: { text: 'Done.' } });
  const hosted = await hostAgent({
    agent: defineAgent({ name: 'refusals', instructions: 'Answer.', tools: [] }),
    model,
    http: {},
    ...(auth ? { auth: { tokens: { users: { [TOKEN]: 'C001' } } } } : {}),
    ...(auth ? {} : { queue: { redis, address: { queue: 'refusals', prefix } } }),
    ...(limits ? { limits } : {}),
    logger: new MemoryLogger(),
  });
  hosts.push(hosted);
  await hosted.start();
  return { hosted, model, prefix };
}

type Reply = { error?: { code: number; message: string; data?: unknown[] }; result?: unknown };

async function post(url: string, path: string, version: '1.0' | '0.3', body: unknown) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'A2A-Version': version, Authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  // A stream answers with SSE: its first event is what counts here.
  const json = text.startsWith('data: ') ? (text.split('\n')[0] ?? '').slice('data: '.length) : text;
  return { response, body: JSON.parse(json) as Reply };
}

const rpc = (url: string, version: '1.0' | '0.3', method: string, params: unknown) =>
  post(url, '/a2a/jsonrpc', version, { jsonrpc: '2.0', id: 1, method, params });

const v1Message = (fields: Record<string, unknown> = {}) => ({
  messageId: randomUUID(),
  role: 'ROLE_USER',
  parts: [{ text: 'Hello' }],
  ...fields,
});
const v03Message = (fields: Record<string, unknown> = {}) => ({
  kind: 'message',
  messageId: randomUUID(),
  role: 'user',
  parts: [{ kind: 'text', text: 'Hello' }],
  ...fields,
});

/** Sends one JSON-RPC request as a job on the agent's queue and reads the reply it ends with. */
async function overQueue(prefix: string, request: unknown): Promise<Reply> {
  const queue = new Queue('refusals', { connection: redis, prefix });
  queues.push(queue);
  const requestId = randomUUID();
  const replyTo = `${prefix}:test-replies:${requestId}`;
  await queue.add('call', {
    v: 1,
    requestId,
    replyTo,
    serviceParameters: { 'a2a-version': '1.0' },
    request: JSON.stringify(request),
  });
  for (let attempt = 0; attempt < 80; attempt++) {
    for (const [, fields] of await redis.xrange(replyTo, '-', '+')) {
      const frame = new Map<string, string>();
      for (let i = 0; i + 1 < fields.length; i += 2) frame.set(fields[i] ?? '', fields[i + 1] ?? '');
      if (frame.get('k') === 'end') return JSON.parse(frame.get('b') ?? '{}') as Reply;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('no reply on the queue');
}

describe('what the A2A routes refuse, and how', () => {
  it('sends no X-Powered-By on any route, before and after the routes open', async () => {
    const { hosted } = await host();
    const answers = [
      await fetch(`${hosted.url}/.well-known/agent-card.json`),
      await fetch(`${hosted.url}/healthz`),
      await fetch(`${hosted.url}/no-such-route`),
      (await rpc(hosted.url, '1.0', 'ListTasks', {})).response,
      await fetch(`${hosted.url}/a2a/rest/tasks`, { headers: { Authorization: `Bearer ${TOKEN}` } }),
    ];
    for (const answer of answers) expect(answer.headers.get('x-powered-by'), answer.url).toBeNull();
  });

  it('refuses an id sent as an object, naming the field, on JSON-RPC 1.0, REST and the queue', async () => {
    const open = await host({ auth: false });
    const { hosted, model } = open;
    const object = { a: 1 };
    const expected = {
      code: -32602,
      message: 'message.contextId must be a string (got an object); send the id as text.',
    };
    expect(
      (await rpc(hosted.url, '1.0', 'SendMessage', { message: v1Message({ contextId: object }) })).body.error,
    ).toMatchObject(expected);
    const rest = await post(hosted.url, '/a2a/rest/message:send', '1.0', {
      message: v1Message({ contextId: object }),
    });
    expect(rest.response.status).toBe(400);
    expect((rest.body as { error?: { message?: string } }).error?.message).toBe(expected.message);
    expect((await rpc(hosted.url, '1.0', 'GetTask', { id: ['a', 'b'] })).body.error).toMatchObject({
      code: -32602,
      message: 'id must be a string (got a list); send the id as text.',
    });
    const queued = await overQueue(open.prefix, {
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: v1Message({ messageId: { forged: true } }) },
    });
    expect(queued.error).toMatchObject({
      code: -32602,
      message: 'message.messageId must be a string (got an object); send the id as text.',
    });
    expect(model.requests).toHaveLength(0);
  });

  it('refuses push-notification settings with PushNotificationNotSupported, as the card says push is off', async () => {
    const { hosted, model } = await host();
    expect(hosted.card.capabilities?.pushNotifications).toBeFalsy();
    const push = { url: 'http://127.0.0.1:9/hook', token: 'secret' };
    const refusals = [
      await rpc(hosted.url, '1.0', 'SendMessage', {
        message: v1Message(),
        configuration: { taskPushNotificationConfig: push },
      }),
      await rpc(hosted.url, '1.0', 'SendStreamingMessage', {
        message: v1Message(),
        configuration: { taskPushNotificationConfig: push },
      }),
      await rpc(hosted.url, '0.3', 'message/send', {
        message: v03Message(),
        configuration: { pushNotificationConfig: push },
      }),
      await rpc(hosted.url, '1.0', 'CreateTaskPushNotificationConfig', { taskId: 't-1', ...push }),
      await rpc(hosted.url, '0.3', 'tasks/pushNotificationConfig/set', {
        taskId: 't-1',
        pushNotificationConfig: push,
      }),
    ];
    for (const { body } of refusals) {
      expect(body.error?.code, JSON.stringify(body)).toBe(-32003);
    }
    expect(refusals[0]?.body.error?.message).toBe(
      'Push notifications are not supported by this agent (its card says so); leave out configuration.taskPushNotificationConfig and follow the task with SubscribeToTask or GetTask.',
    );
    const rest = await post(hosted.url, '/a2a/rest/message:send', '1.0', {
      message: v1Message(),
      configuration: { taskPushNotificationConfig: push },
    });
    expect(rest.response.status).toBe(400);
    expect(JSON.stringify(rest.body)).toContain('PUSH_NOTIFICATION_NOT_SUPPORTED');
    expect(model.requests).toHaveLength(0);
  });

  it('answers a v0.3 caller over its rate limit as a v1.0 one: -32000, HTTP 429 and Retry-After', async () => {
    const { hosted } = await host({ limits: { users: { requestsPerMinute: 1 } } });
    await rpc(hosted.url, '0.3', 'tasks/get', { id: 'none' });
    for (const version of ['0.3', '1.0'] as const) {
      const method = version === '0.3' ? 'tasks/get' : 'GetTask';
      const { response, body } = await rpc(hosted.url, version, method, { id: 'none' });
      expect(response.status, version).toBe(429);
      expect(Number(response.headers.get('retry-after')), version).toBeGreaterThanOrEqual(1);
      expect(body.error, version).toMatchObject({
        code: -32000,
        message: expect.stringMatching(/^Too many requests: 1 per minute per caller; retry in \d+ s\.$/),
      });
    }
    // The v0.3 REST binding too: its body is the JSON-RPC error object itself.
    const rest = await fetch(`${hosted.url}/a2a/rest/v1/tasks/none`, {
      headers: { Authorization: `Bearer ${TOKEN}`, 'A2A-Version': '0.3' },
    });
    expect(rest.status).toBe(429);
    expect(rest.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await rest.json()).toMatchObject({
      code: -32000,
      message: expect.stringMatching(/^Too many requests/),
    });
  });
});
