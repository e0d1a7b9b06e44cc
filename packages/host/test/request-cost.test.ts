import { randomUUID } from 'node:crypto';
import { type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { type Attributes, context, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { A2aQueueServer, BULLMQ_BINDING, QueueTransportFactory, queueUrl } from '@switchboard/a2a-bullmq';
import {
  type Agent,
  type AgentCost,
  type AgentTracer,
  type ChatModel,
  defineAgent,
  defineTool,
  type Logger,
  RequestCost,
  silentLogger,
} from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import { delegationTools } from '@switchboard/delegate';
import { COST_KEY } from '@switchboard/protocol';
import { createRedisConnection } from '@switchboard/redis';
import { Queue } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { buildAgentCard, costDayOf, createAgentHandler, MemoryCostBook } from '../src/index.ts';
import { sendRequest, userMessage } from './support/messages.ts';

const redis = createRedisConnection({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
});
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
  await redis.quit();
});

/** The agent runtime's spans on OpenTelemetry, as an app adapts its tracing port. */
const agentTracer: AgentTracer = {
  inSpan: (spec, fn) =>
    trace
      .getTracer('agent-runtime')
      .startActiveSpan(spec.name, { attributes: spec.attributes as Attributes }, async (span) => {
        try {
          return await fn({
            setAttributes: (more) => span.setAttributes(more as Attributes),
            setError: () => {},
          });
        } finally {
          span.end();
        }
      }),
};

/** The worker's script: one tool call, then the answer, each with known usage. */
function ordersWorker(): { agent: Agent; model: ChatModel } {
  const getOrder = defineTool({
    name: 'get_order',
    summary: 'Look up an order.',
    whenToUse: 'Order questions.',
    input: z.object({ orderId: z.string() }),
    risk: 'read',
    handler: ({ orderId }) => ({ orderId, status: 'shipped' }),
  });
  const model = new ScriptedModel({
    turns: [
      {
        toolCalls: [{ name: 'get_order', arguments: { orderId: 'A10086' } }],
        usage: { promptTokens: 40, completionTokens: 8 },
      },
      { text: 'A10086 has shipped.', usage: { promptTokens: 50, completionTokens: 5 } },
    ],
  });
  return { agent: defineAgent({ name: 'orders', instructions: 'Orders.', tools: [getOrder] }), model };
}

/** The supervisor's script: delegate, then answer with what the worker said. */
function supervisorModel(): ChatModel {
  return new ScriptedModel({
    turns: [
      {
        toolCalls: [{ name: 'orders_get_order', arguments: { request: 'Where is A10086?' } }],
        usage: { promptTokens: 100, completionTokens: 10 },
      },
      { text: 'Your order has shipped.', usage: { promptTokens: 130, completionTokens: 6 } },
    ],
  });
}

/** A worker that reports a cost no one should believe (its final events rewritten). */
function lyingAbout(cost: unknown) {
  return (handler: A2ARequestHandler): A2ARequestHandler =>
    Object.assign(Object.create(handler) as A2ARequestHandler, {
      async *sendMessageStream(
        params: Parameters<A2ARequestHandler['sendMessage']>[0],
        call: ServerCallContext,
      ) {
        for await (const event of handler.sendMessageStream(params, call)) {
          const payload = (event as StreamResponse).payload;
          if (payload?.$case === 'statusUpdate' && payload.value.metadata?.[COST_KEY])
            payload.value.metadata[COST_KEY] = cost;
          yield event;
        }
      },
    });
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function startSystem({
  decorateWorker = (handler: A2ARequestHandler) => handler,
  logger = silentLogger(),
}: {
  decorateWorker?: (handler: A2ARequestHandler) => A2ARequestHandler;
  logger?: Logger;
} = {}) {
  exporter.reset();
  const prefix = `{test:${randomUUID()}}`;
  closers.push(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  });
  const factory = new QueueTransportFactory({ redis, timeoutMs: 10_000 });
  closers.push(() => factory.close());
  const clients = new ClientFactory({ transports: [factory] });
  const serve = async (
    queue: string,
    agent: Agent,
    model: ChatModel,
    options: { costBook?: MemoryCostBook; decorate?: (h: A2ARequestHandler) => A2ARequestHandler } = {},
  ) => {
    const address = { queue, prefix };
    const card = buildAgentCard({
      agent,
      interfaces: [{ url: queueUrl(address), protocolBinding: BULLMQ_BINDING }],
    });
    const hosted = createAgentHandler({
      agent,
      model,
      card,
      tracer: agentTracer,
      logger: silentLogger(),
      ...(options.costBook ? { costBook: options.costBook } : {}),
    });
    const server = new A2aQueueServer({
      requestHandler: (options.decorate ?? ((h) => h))(hosted.requestHandler),
      card,
      address,
      redis,
      logger: silentLogger(),
    });
    await server.start();
    closers.push(() => server.close({ graceMs: 2_000 }));
    return { card, address };
  };
  const worker = ordersWorker();
  const orders = await serve('a2a.orders', worker.agent, worker.model, { decorate: decorateWorker });
  const tools = delegationTools({
    peers: [orders.card],
    clientFor: (card) => clients.createFromAgentCard(card),
    logger,
  });
  const costBook = new MemoryCostBook();
  const supervisorAgent = defineAgent({ name: 'supervisor', instructions: 'Delegate.', tools });
  const supervisor = await serve('a2a.supervisor', supervisorAgent, supervisorModel(), { costBook });
  const client = await clients.createFromAgentCard(supervisor.card);
  return { client, costBook, prefix, addresses: { orders: orders.address, supervisor: supervisor.address } };
}

/** How long the job that carried a request waited on its queue, as BullMQ stamped it. */
async function queueWaitOf(address: { queue: string; prefix: string }): Promise<number> {
  const queue = new Queue(address.queue, { connection: redis, prefix: address.prefix });
  try {
    const [job] = (await queue.getJobs(['completed', 'active'])).filter(
      (job) => job.name === 'SendStreamingMessage' || job.name === 'SendMessage',
    );
    return (job?.processedOn ?? Number.NaN) - (job?.timestamp ?? 0);
  } finally {
    await queue.close();
  }
}

/** The SERVER spans of the requests an agent served. */
const served = (agent: string) =>
  exporter
    .getFinishedSpans()
    .filter(
      (span) =>
        span.kind === SpanKind.SERVER &&
        span.attributes['gen_ai.agent.name'] === agent &&
        /^SendMessage$|^SendStreamingMessage$/.test(span.name),
    );

const chatMs = (agent: string) =>
  exporter
    .getFinishedSpans()
    .filter((span) => span.name.startsWith('chat ') && span.attributes['gen_ai.agent.name'] === agent)
    .map((span) => span.duration[0] * 1000 + span.duration[1] / 1e6);

describe('the cost of a request across its agent tree', () => {
  it('sums every hop’s model usage and timings, on the task, on the root SERVER span and in the cost book', async () => {
    const sys = await startSystem();
    const task = (await sys.client.sendMessage(sendRequest(userMessage('Where is A10086?')))) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const cost = RequestCost.parse(task.metadata?.[COST_KEY]);
    const byAgent = Object.fromEntries(cost.agents.map((entry) => [entry.agent, entry])) as Record<
      string,
      AgentCost
    >;
    const supervisor = byAgent.supervisor;
    const orders = byAgent.orders;
    if (!supervisor || !orders) throw new Error(`agents: ${JSON.stringify(cost.agents)}`);

    // Tokens: exactly the scripts' usage, per agent and in total.
    expect([supervisor.tokensIn, supervisor.tokensOut, orders.tokensIn, orders.tokensOut]).toEqual([
      230, 16, 90, 13,
    ]);
    expect(cost.total).toMatchObject({ tokensIn: 320, tokensOut: 29, hops: 2 });
    // Queue waits: each hop's job, from added to taken, as BullMQ stamped it.
    expect(orders.queueWaitMs).toBe(await queueWaitOf(sys.addresses.orders));
    expect(supervisor.queueWaitMs).toBe(await queueWaitOf(sys.addresses.supervisor));
    // Timings: each agent's model time holds its model calls; the delegation waited for the worker's run.
    for (const [entry, name] of [
      [supervisor, 'supervisor'],
      [orders, 'orders'],
    ] as const) {
      const calls = chatMs(name);
      expect(calls).toHaveLength(2);
      expect(entry.modelMs).toBeGreaterThanOrEqual(
        Math.floor(calls.reduce((a, b) => a + b, 0)) - calls.length,
      );
    }
    expect(supervisor.toolMs).toBeGreaterThanOrEqual(orders.modelMs + orders.toolMs);
    // The total is the entries' sum.
    for (const key of ['tokensIn', 'tokensOut', 'modelMs', 'toolMs', 'queueWaitMs', 'hops'] as const)
      expect(cost.total[key]).toBe(supervisor[key] + orders[key]);

    // The same numbers on the request's SERVER span; the worker's span holds its own subtree.
    await vi.waitFor(() => expect(served('orders')).toHaveLength(1));
    const [root] = served('supervisor');
    expect(root?.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 320,
      'gen_ai.usage.output_tokens': 29,
      'switchboard.cost.model_ms': cost.total.modelMs,
      'switchboard.cost.tool_ms': cost.total.toolMs,
      'switchboard.cost.queue_wait_ms': cost.total.queueWaitMs,
      'switchboard.cost.hops': 2,
      'switchboard.cost.agents': cost.agents.map((entry) => JSON.stringify(entry)),
    });
    expect(served('orders')[0]?.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 90,
      'switchboard.cost.hops': 1,
      'switchboard.cost.agents': [JSON.stringify(orders)],
    });

    // The cost book: the root request once, per agent, on today's line.
    const today = costDayOf(new Date());
    await vi.waitFor(async () =>
      expect((await sys.costBook.days({ from: today, to: today }))[0]?.requests).toBe(1),
    );
    const [day] = await sys.costBook.days({ from: today, to: today });
    expect(day?.agents).toEqual([...cost.agents].sort((a, b) => a.agent.localeCompare(b.agent)));
    expect(day?.total).toEqual(cost.total);
  });

  it('ignores, with a log line, a cost from a worker that does not check out: the totals are the caller’s own', async () => {
    const warnings: unknown[] = [];
    const logger: Logger = {
      ...silentLogger(),
      warn: (fields, message) => void warnings.push({ fields, message }),
    };
    const absurd = {
      agents: [
        { agent: 'orders', tokensIn: 10 ** 14, tokensOut: 1, modelMs: 1, toolMs: 1, queueWaitMs: 1, hops: 1 },
      ],
      total: { tokensIn: 10 ** 14, tokensOut: 1, modelMs: 1, toolMs: 1, queueWaitMs: 1, hops: 1 },
    };
    const sys = await startSystem({ decorateWorker: lyingAbout(absurd), logger });
    const task = (await sys.client.sendMessage(sendRequest(userMessage('Where is A10086?')))) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const cost = RequestCost.parse(task.metadata?.[COST_KEY]);
    expect(cost.agents.map((entry) => entry.agent)).toEqual(['supervisor']);
    expect(cost.total).toMatchObject({ tokensIn: 230, tokensOut: 16, hops: 1 });
    expect(warnings).toContainEqual({
      fields: expect.objectContaining({ agent: 'orders', problem: expect.stringContaining('tokensIn') }),
      message: 'ignored the cost a delegate reported: it does not check out',
    });
  });
});
