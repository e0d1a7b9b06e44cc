import { randomUUID } from 'node:crypto';
import { type AgentCard, TaskState } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { defaultQueueAddress, QueueTransportFactory } from '@switchboard/a2a-bullmq';
import {
  type ChatMessage,
  defineAgent,
  defineTool,
  MemoryIntentStore,
  silentLogger,
} from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import { delegationTools, signQueuedRequests } from '@switchboard/delegate';
import {
  generateServiceKey,
  MemoryReplayGuard,
  serviceAssertionAuthenticator,
  serviceSigner,
  trustedKeys,
} from '@switchboard/identity';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgentHost, hostAgent } from '../src/index.ts';
import { partsText, sendTask } from './support/http-host.ts';
import { keysOf, testRedis } from './support/redis.ts';

const redis = testRedis();
const namespace = `test-owner-${randomUUID().slice(0, 8)}`;
const SUPERVISOR_KEY = generateServiceKey({ service: 'supervisor', label: 'test' });
const TOKENS = { 'ada-token-0123456789abcdef': 'C001', 'grace-token-0123456789abcdef': 'C002' };

const toolContents = (messages: readonly ChatMessage[]) =>
  messages.flatMap((message) => (message.role === 'tool' ? [String(message.content)] : []));
const userTexts = (messages: readonly ChatMessage[]) =>
  messages.flatMap((message) => (message.role === 'user' ? [String(message.content)] : []));

/**
 * A worker whose tools answer with whom they ran for, and whose model answers with every tool
 * result of its conversation: a conversation shared by two customers shows in the second's answer.
 */
function ordersWorker(runs: { receipts: number }) {
  const OrderId = z.object({ orderId: z.string().regex(/^A\d{5}$/) });
  const agent = defineAgent({
    name: 'orders',
    instructions: 'Orders desk.',
    tools: [
      defineTool({
        name: 'get_order',
        summary: 'Look up an order.',
        whenToUse: 'Order questions.',
        input: OrderId,
        risk: 'read',
        handler: ({ orderId }, { principal }) => ({ orderId, readFor: principal?.id }),
      }),
      defineTool({
        name: 'send_receipt',
        summary: 'Send the receipt of an order.',
        whenToUse: 'The customer wants a receipt.',
        input: OrderId,
        risk: 'write',
        idempotent: false,
        handler: ({ orderId }, { principal }) => {
          runs.receipts++;
          return { orderId, sentTo: principal?.id };
        },
      }),
    ],
  });
  const model = new ScriptedModel({
    turns: [],
    whenExhausted: ({ messages }) => {
      const text = userTexts(messages).at(-1) ?? '';
      if (messages.at(-1)?.role === 'user') {
        const orderId = /A\d{5}/.exec(text)?.[0] ?? 'A00000';
        const tool = /receipt/i.test(text) ? 'send_receipt' : 'get_order';
        return { toolCalls: [{ name: tool, arguments: { orderId } }] };
      }
      return { text: `orders saw: ${toolContents(messages).join(' | ')}` };
    },
  });
  return { agent, model };
}

/**
 * A supervisor whose model delegates each message under a call id that only its turn decides (as the
 * offline model does), so two conversations' calls have the same ids; it answers with the worker's answer and how many user messages its conversation holds.
 */
function supervisorModel() {
  return new ScriptedModel({
    turns: [],
    whenExhausted: ({ messages }) => {
      const texts = userTexts(messages);
      const last = messages.at(-1);
      if (last?.role === 'user') {
        const tool = /receipt/i.test(texts.at(-1) ?? '') ? 'orders_receipts' : 'orders_order_status';
        return {
          toolCalls: [{ id: `call-${texts.length}`, name: tool, arguments: { request: texts.at(-1) } }],
        };
      }
      return {
        text: `Supervisor (${texts.length} messages: ${texts.join(' / ')}): ${String(last?.content)}`,
      };
    },
  });
}

const runs = { receipts: 0 };
let worker: AgentHost;
let supervisor: AgentHost;
let queue: QueueTransportFactory;

beforeAll(async () => {
  const orders = ordersWorker(runs);
  worker = await hostAgent({
    ...orders,
    skills: [
      { id: 'order-status', name: 'Order status', description: 'Where an order is.', tools: ['get_order'] },
      { id: 'receipts', name: 'Receipts', description: 'Receipts of orders.', tools: ['send_receipt'] },
    ],
    queue: { redis, address: defaultQueueAddress('orders', namespace) },
    http: {},
    auth: {
      // Customers may also call the worker directly, over HTTP.
      tokens: { customers: { ...TOKENS } },
      authenticators: [
        serviceAssertionAuthenticator({
          audience: 'orders',
          trustedKeys: trustedKeys({
            source: { kind: 'inline', keySet: { keys: [SUPERVISOR_KEY.publicKey] } },
          }),
          replay: new MemoryReplayGuard(),
          delegators: ['supervisor'],
          logger: silentLogger(),
        }),
      ],
    },
    stores: { intents: new MemoryIntentStore() },
    logger: silentLogger(),
  });
  await worker.start();
  queue = new QueueTransportFactory({ redis, timeoutMs: 10_000, serviceParameters: signQueuedRequests });
  const tools = delegationTools({
    peers: [worker.card],
    clientFor: (card: AgentCard) => new ClientFactory({ transports: [queue] }).createFromAgentCard(card),
    timeoutMs: 10_000,
    signer: serviceSigner({ key: SUPERVISOR_KEY.privateKey }),
  });
  supervisor = await hostAgent({
    agent: defineAgent({ name: 'supervisor', instructions: 'Delegate.', tools }),
    model: supervisorModel(),
    http: {},
    auth: { tokens: { customers: { ...TOKENS } } },
    logger: silentLogger(),
  });
  await supervisor.start();
});

afterEach(() => {
  runs.receipts = 0;
});

afterAll(async () => {
  await supervisor?.close();
  await queue?.close();
  await worker?.close({ graceMs: 1_000 });
  const keys = await keysOf(redis, `*${namespace}*`);
  if (keys.length > 0) await Promise.all(keys.map((key) => redis.unlink(key)));
  await redis.quit();
});

/** An A2A client of the supervisor (or of the worker, directly), as the customer with that token. */
function clientAs(token: keyof typeof TOKENS, url = supervisor.url): Promise<Client> {
  const fetchAs: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('Authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  return new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl: fetchAs })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl: fetchAs }),
  }).createFromUrl(url);
}

async function ask(client: Client, text: string, contextId: string) {
  const task = await sendTask(client, text, { contextId });
  expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  return { task, answer: partsText(task.artifacts[0]?.parts ?? []) };
}

describe('two customers who send the same contextId', () => {
  it('never share a worker conversation: the second never sees the first’s result', async () => {
    const contextId = `shared-${randomUUID()}`;
    const ada = await ask(await clientAs('ada-token-0123456789abcdef'), 'Where is order A10086?', contextId);
    expect(ada.answer).toContain('\\"readFor\\":\\"C001\\"');
    const grace = await ask(
      await clientAs('grace-token-0123456789abcdef'),
      'Where is order A10086?',
      contextId,
    );
    expect(grace.answer).toContain('\\"readFor\\":\\"C002\\"');
    expect(grace.answer).not.toContain('C001');
    // The worker's conversation for Grace holds her one lookup only.
    expect(grace.answer.match(/readFor/g)).toHaveLength(1);
  });

  it('run an action that is not idempotent each for themselves: the second is not handed the first’s record', async () => {
    const contextId = `shared-${randomUUID()}`;
    const ada = await ask(
      await clientAs('ada-token-0123456789abcdef'),
      'A receipt for A10086, please',
      contextId,
    );
    expect(ada.answer).toContain('\\"sentTo\\":\\"C001\\"');
    const grace = await ask(
      await clientAs('grace-token-0123456789abcdef'),
      'A receipt for A10086, please',
      contextId,
    );
    expect(grace.answer).toContain('\\"sentTo\\":\\"C002\\"');
    expect(grace.answer).not.toContain('C001');
    expect(runs.receipts).toBe(2);
  });

  it('calling a worker directly, run an action that is not idempotent each for themselves too', async () => {
    const contextId = `shared-${randomUUID()}`;
    const ada = await ask(
      await clientAs('ada-token-0123456789abcdef', worker.url),
      'A receipt for A10086',
      contextId,
    );
    expect(ada.answer).toContain('"sentTo":"C001"');
    const grace = await ask(
      await clientAs('grace-token-0123456789abcdef', worker.url),
      'A receipt for A10086',
      contextId,
    );
    expect(grace.answer).toContain('"sentTo":"C002"');
    expect(grace.answer).not.toContain('C001');
    expect(runs.receipts).toBe(2);
  });

  it('cannot borrow a conversation on the supervisor: the second starts a fresh one, and cannot read the first’s task', async () => {
    const contextId = `shared-${randomUUID()}`;
    const adaClient = await clientAs('ada-token-0123456789abcdef');
    await ask(adaClient, 'Where is order A10086?', contextId);
    const again = await ask(adaClient, 'And where is order A10094?', contextId);
    expect(again.answer).toContain(
      'Supervisor (2 messages: Where is order A10086? / And where is order A10094?)',
    );
    const graceClient = await clientAs('grace-token-0123456789abcdef');
    const grace = await ask(graceClient, 'Where is order A10095?', contextId);
    expect(grace.answer).toContain('Supervisor (1 messages: Where is order A10095?)');
    expect(grace.answer).not.toMatch(/A10086|A10094|C001/);
    await expect(
      graceClient.getTask({ tenant: '', id: again.task.id, historyLength: undefined }),
    ).rejects.toThrow();
  });
});
