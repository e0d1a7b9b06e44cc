import { randomUUID } from 'node:crypto';
import type { Task } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import { type ChatModel, type ChatRequest, defineAgent, streamFromResponse } from '@switchboard/agent';
import { MemoryLogger, ScriptedModel } from '@switchboard/agent/testing';
import { sendMessageRequest, textPart, userMessage } from '@switchboard/protocol';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type AgentHost, type HostLimits, hostAgent, RedisLimitCounters } from '../src/index.ts';
import { removeKeysUnder, testRedis } from './support/redis.ts';

const redis = testRedis();
const prefixes: string[] = [];
const hosts: AgentHost[] = [];

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close({ graceMs: 0 })));
});
afterAll(async () => {
  await removeKeysUnder(redis, prefixes);
  await redis.quit();
});

const TOKENS = {
  users: {
    'cust-9Qm2xT7vLk4pR8sW1zYb': 'C001',
    'cust-3Hn6cJ0dFa5gUe2iOq7t': 'C002',
  },
  operators: { 'ops-Vb8Nw3Kx6Zp1Lr4Ty9Mq': 'ada' },
};
const [CUSTOMER, OTHER_CUSTOMER] = Object.keys(TOKENS.users) as [string, string];
const [OPERATOR] = Object.keys(TOKENS.operators) as [string];

/** A model that answers only once `open()` is called; `started` resolves when a request waits. */
class GatedModel implements ChatModel {
  readonly modelId = 'gated';
  readonly provider = 'scripted';
  readonly capabilities = { jsonSchema: true, jsonObject: true, parallelToolCalls: true };
  readonly #inner = new ScriptedModel({ turns: [], whenExhausted: { text: 'Done.' } });
  #open: () => void = () => {};
  readonly #gate = new Promise<void>((resolve) => {
    this.#open = resolve;
  });
  #started: () => void = () => {};
  readonly started = new Promise<void>((resolve) => {
    this.#started = resolve;
  });

  open(): void {
    this.#open();
  }

  async generate(request: ChatRequest) {
    this.#started();
    await this.#gate;
    return this.#inner.generate(request);
  }

  async *stream(request: ChatRequest) {
    yield* streamFromResponse(await this.generate(request));
  }
}

const answering = () => new ScriptedModel({ turns: [], whenExhausted: { text: 'Done.' } });

/** A replica of one agent over HTTP, counting limits in Redis under `prefix` with its siblings. */
async function replica({
  prefix,
  limits,
  model = answering(),
}: {
  prefix: string;
  limits: Omit<HostLimits, 'counters'>;
  model?: ChatModel;
}): Promise<AgentHost> {
  const agent = defineAgent({ name: 'limited', instructions: 'Answer.', tools: [] });
  const host = await hostAgent({
    agent,
    model,
    http: {},
    auth: { tokens: TOKENS },
    limits: { ...limits, counters: new RedisLimitCounters({ redis, prefix }) },
    logger: new MemoryLogger(),
  });
  hosts.push(host);
  await host.start();
  return host;
}

function newPrefix(): string {
  const prefix = `{limits-test-${randomUUID().slice(0, 8)}}`;
  prefixes.push(prefix);
  return prefix;
}

const withToken =
  (token: string): typeof fetch =>
  (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('Authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };

async function client(
  host: AgentHost,
  token: string,
  binding: 'JSONRPC' | 'HTTP+JSON' = 'JSONRPC',
): Promise<Client> {
  const fetchImpl = withToken(token);
  const transports =
    binding === 'JSONRPC'
      ? [new JsonRpcTransportFactory({ fetchImpl })]
      : [new RestTransportFactory({ fetchImpl })];
  return new ClientFactory({ transports }).createFromAgentCard(host.card);
}

const say = (text: string) => sendMessageRequest({ message: userMessage({ text }) });
const list = (caller: Client) =>
  caller.listTasks({ tenant: '', contextId: '', status: 0, pageSize: 10 } as never);

describe('request limits', () => {
  it('refuses a message over the size or parts limit, naming the limit, over JSON-RPC and REST', async () => {
    const host = await replica({
      prefix: newPrefix(),
      limits: { users: { maxMessageBytes: 1024, maxMessageParts: 3 } },
    });
    for (const binding of ['JSONRPC', 'HTTP+JSON'] as const) {
      const caller = await client(host, CUSTOMER, binding);
      await expect(caller.sendMessage(say('x'.repeat(2048)))).rejects.toThrow(
        'Message too large: 2 KB of content, the limit is 1 KB per message; send less, or split it over several messages.',
      );
      const message = { ...userMessage({ text: 'a' }), parts: ['a', 'b', 'c', 'd'].map(textPart) };
      await expect(caller.sendMessage(sendMessageRequest({ message }))).rejects.toThrow(
        'Too many parts: 4 in one message, the limit is 3; put the content in fewer parts.',
      );
      await expect(caller.sendMessage(say('Hello'))).resolves.toMatchObject({ status: { state: 3 } });
    }
  });

  it('refuses a caller over its requests per minute, with when to retry; others go on', async () => {
    const host = await replica({ prefix: newPrefix(), limits: { users: { requestsPerMinute: 3 } } });
    const customer = await client(host, CUSTOMER);
    for (let i = 0; i < 3; i++) await list(customer);
    await expect(list(customer)).rejects.toThrow(
      /^Too many requests: 3 per minute per caller; retry in \d+ s\.$/,
    );
    await expect(customer.sendMessage(say('Hello'))).rejects.toThrow(/Too many requests/);

    // Over HTTP: 429 and Retry-After, the JSON-RPC error keeping its ErrorInfo; REST the same.
    const rpc = await withToken(CUSTOMER)(`${host.url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ListTasks', params: {} }),
    });
    expect(rpc.status).toBe(429);
    const retryAfter = Number(rpc.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const body = (await rpc.json()) as { error: { data: unknown[] } };
    expect(body).toMatchObject({
      id: 7,
      error: { code: -32000, message: expect.stringMatching(/^Too many requests/) },
    });
    expect(body.error.data[0]).toMatchObject({
      reason: 'TOO_MANY_REQUESTS',
      metadata: { limit: 'requestsPerMinute', retryAfterMs: expect.stringMatching(/^\d+$/) },
    });
    const rest = await withToken(CUSTOMER)(`${host.url}/a2a/rest/tasks`, {
      headers: { 'A2A-Version': '1.0' },
    });
    expect(rest.status).toBe(429);
    expect(rest.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await rest.json()).toMatchObject({ error: { code: 429, status: 'RESOURCE_EXHAUSTED' } });

    // Limits are per caller: another customer and an operator are not held back.
    await expect(list(await client(host, OTHER_CUSTOMER))).resolves.toBeDefined();
    for (let i = 0; i < 5; i++) await list(await client(host, OPERATOR));
  });

  it('counts a caller’s tasks in flight across replicas, and frees the slot when the task ends', async () => {
    const prefix = newPrefix();
    const limits = { users: { maxTasksInFlight: 1 }, slotLeaseMs: 30_000 };
    const gated = new GatedModel();
    const first = await replica({ prefix, limits, model: gated });
    const second = await replica({ prefix, limits });
    const running = (await client(first, CUSTOMER)).sendMessage(say('Take your time.'));
    await gated.started;

    const elsewhere = await client(second, CUSTOMER);
    await expect(elsewhere.sendMessage(say('And this too.'))).rejects.toThrow(
      'Too many tasks running: 1 at once per caller; retry in 5 s, or once one of them has finished.',
    );
    // Another customer has slots of their own; the held slot heals by itself if its replica dies.
    await expect((await client(second, OTHER_CUSTOMER)).sendMessage(say('Hi'))).resolves.toBeDefined();
    const ttl = await redis.pttl(`${prefix}:limit:tasks:user:C001`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(30_000);

    gated.open();
    await expect(running).resolves.toMatchObject({ status: { state: 3 } });
    await expect(elsewhere.sendMessage(say('Now?'))).resolves.toMatchObject({ status: { state: 3 } });
  });

  it('holds the slot of a task answered at once (returnImmediately) until the task ends', async () => {
    const gated = new GatedModel();
    const host = await replica({
      prefix: newPrefix(),
      limits: { users: { maxTasksInFlight: 1 } },
      model: gated,
    });
    const customer = await client(host, CUSTOMER);
    const started = (await customer.sendMessage(
      sendMessageRequest({ message: userMessage({ text: 'In the background.' }), returnImmediately: true }),
    )) as Task;
    await gated.started;
    await expect(customer.sendMessage(say('Another one.'))).rejects.toThrow(/Too many tasks running/);

    gated.open();
    let task = started;
    while (task.status?.state !== 3) task = await customer.getTask({ tenant: '', id: started.id });
    // The slot is given back once the task's stream has ended, just after it completed.
    let answer: unknown;
    while (answer === undefined) answer = await customer.sendMessage(say('Now?')).catch(() => undefined);
    expect(answer).toMatchObject({ status: { state: 3 } });
  });

  it('refuses limits that cannot work before serving anything', async () => {
    await expect(
      replica({ prefix: newPrefix(), limits: { users: { requestsPerMinute: 0 } } }),
    ).rejects.toThrow(
      'limits are not valid: users.requestsPerMinute must be a whole number of at least 1, or Infinity for no limit (got 0).',
    );
  });

  it('still reads the 0.2 name of the users’ limits, and refuses it beside users', async () => {
    const host = await replica({ prefix: newPrefix(), limits: { customers: { requestsPerMinute: 2 } } });
    const user = await client(host, CUSTOMER);
    for (let i = 0; i < 2; i++) await list(user);
    await expect(list(user)).rejects.toThrow(/Too many requests/);
    await expect(
      replica({
        prefix: newPrefix(),
        limits: { users: { requestsPerMinute: 2 }, customers: { requestsPerMinute: 3 } },
      }),
    ).rejects.toThrow('customers is the deprecated name of users and both are given; keep only users');
  });
});
