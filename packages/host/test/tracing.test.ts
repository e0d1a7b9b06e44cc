import { randomUUID } from 'node:crypto';
import { type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import {
  type Attributes,
  context,
  propagation,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { A2aQueueServer, BULLMQ_BINDING, QueueTransportFactory, queueUrl } from '@switchboard/a2a-bullmq';
import {
  type AgentTracer,
  defineAgent,
  defineTool,
  type SpanAttributes,
  silentLogger,
} from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import { tracedTransportFactory } from '@switchboard/delegate/observe';
import { createRedisConnection } from '@switchboard/redis';
import { Queue } from 'bullmq';
import express from 'express';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { a2aHttpInterfaces, createA2aHttpApp, startA2aHttpServer } from '../src/http.ts';
import { buildAgentCard, createAgentHandler, deduplicateMessages } from '../src/index.ts';
import { sendRequest, userMessage } from './support/messages.ts';

const redis = createRedisConnection({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const tracer = provider.getTracer('tracing-test');

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  trace.setGlobalTracerProvider(provider);
});

afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  propagation.disable();
  context.disable();
  await redis.quit();
});

/** The agent runtime's tracing port on OpenTelemetry, as an app would adapt it: `inSpan` → `startActiveSpan`. */
function otelAgentTracer(otel: Tracer): AgentTracer {
  const attributes = (source: SpanAttributes): Attributes => {
    const converted: Attributes = {};
    for (const [key, value] of Object.entries(source)) {
      converted[key] = typeof value === 'object' ? [...value] : value;
    }
    return converted;
  };
  return {
    inSpan: (spec, fn) =>
      otel.startActiveSpan(
        spec.name,
        {
          kind: spec.operation === 'chat' ? SpanKind.CLIENT : SpanKind.INTERNAL,
          attributes: attributes(spec.attributes),
        },
        async (span) => {
          try {
            return await fn({
              setAttributes: (more) => span.setAttributes(attributes(more)),
              setError: (type, message) => {
                span.setAttribute('error.type', type);
                span.setStatus({ code: SpanStatusCode.ERROR, message });
              },
            });
          } finally {
            span.end();
          }
        },
      ),
  };
}

function ordersAgent() {
  const getOrder = defineTool({
    name: 'get_order',
    summary: 'Look up an order.',
    whenToUse: 'Order questions.',
    input: z.object({ orderId: z.string() }),
    risk: 'read',
    handler: ({ orderId }) => ({ orderId, status: 'shipped' }),
  });
  const agent = defineAgent({ name: 'orders', instructions: 'Orders.', tools: [getOrder] });
  const model = new ScriptedModel({
    turns: [],
    whenExhausted: (request) =>
      request.messages.at(-1)?.role === 'user'
        ? { toolCalls: [{ name: 'get_order', arguments: { orderId: 'A10086' } }] }
        : { text: 'It has shipped.' },
  });
  return { agent, model };
}

const spans = () => exporter.getFinishedSpans();
const named = (name: string, kind?: SpanKind) =>
  spans().filter((span) => span.name === name && (kind === undefined || span.kind === kind));
function one(name: string, kind?: SpanKind): ReadableSpan {
  const found = named(name, kind);
  expect(found, `spans named ${name}: ${spans().map((span) => span.name)}`).toHaveLength(1);
  const [span] = found;
  if (!span) throw new Error(`no span ${name}`);
  return span;
}
function parentOf(span: ReadableSpan): ReadableSpan | undefined {
  const id = span.parentSpanContext?.spanId;
  return spans().find((candidate) => candidate.spanContext().spanId === id);
}
/** Span names from the root down to `span`, each with its kind. */
function ancestry(span: ReadableSpan): string[] {
  const chain: string[] = [];
  for (let current: ReadableSpan | undefined = span; current; current = parentOf(current)) {
    chain.unshift(`${SpanKind[current.kind]} ${current.name}`);
  }
  return chain;
}

describe('tracing over the BullMQ binding', () => {
  let prefix: string;
  const address = () => ({ queue: 'a2a.traced', prefix });
  let server: A2aQueueServer;
  let factory: QueueTransportFactory;
  let client: Client;

  beforeEach(async () => {
    exporter.reset();
    prefix = `{test:${randomUUID()}}`;
    const { agent, model } = ordersAgent();
    const card = buildAgentCard({
      agent,
      interfaces: [{ url: queueUrl(address()), protocolBinding: BULLMQ_BINDING }],
    });
    const hosted = createAgentHandler({
      agent,
      model,
      card,
      tracer: otelAgentTracer(trace.getTracer('agent-runtime')),
      logger: silentLogger(),
    });
    server = new A2aQueueServer({
      requestHandler: deduplicateMessages({ handler: hosted.requestHandler, redis, prefix }),
      card,
      address: address(),
      redis,
      logger: silentLogger(),
    });
    await server.start();
    factory = new QueueTransportFactory({ redis, timeoutMs: 10_000 });
    client = await new ClientFactory({ transports: [factory] }).createFromAgentCard(card);
  });

  afterEach(async () => {
    await factory.close();
    await server.close({ graceMs: 2_000 });
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  });

  it('makes one trace from the caller to the tools: client, send, process, server, invoke_agent, chat, execute_tool', async () => {
    const message = userMessage('Where is A10086?');
    const outer = await tracer.startActiveSpan('test request', async (span) => {
      try {
        const result = await client.sendMessage(sendRequest(message));
        return { span, task: result as Task };
      } finally {
        span.end();
      }
    });
    expect(outer.task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    // The worker ends its process span after writing the reply, so it may finish after the caller.
    await vi.waitFor(() => expect(named('process a2a.traced')).toHaveLength(1));

    const traceId = outer.span.spanContext().traceId;
    expect(new Set(spans().map((span) => span.spanContext().traceId))).toEqual(new Set([traceId]));

    const chats = named('chat scripted');
    expect(chats).toHaveLength(2);
    const chat = chats.at(-1);
    if (!chat) throw new Error('no chat span');
    expect(ancestry(chat)).toEqual([
      'INTERNAL test request',
      'CLIENT SendMessage',
      'PRODUCER send a2a.traced',
      'CONSUMER process a2a.traced',
      'SERVER SendMessage',
      'INTERNAL invoke_agent orders',
      'CLIENT chat scripted',
    ]);
    expect(ancestry(one('execute_tool get_order')).slice(-2)).toEqual([
      'INTERNAL invoke_agent orders',
      'INTERNAL execute_tool get_order',
    ]);

    const conversation = outer.task.contextId;
    const caller = one('SendMessage', SpanKind.CLIENT);
    expect(caller.attributes).toMatchObject({
      'a2a.method.name': 'SendMessage',
      'a2a.message.id': message.messageId,
      'a2a.task.id': outer.task.id,
      'a2a.task.state': 'TASK_STATE_COMPLETED',
      'a2a.protocol.version': '1.0',
      'gen_ai.conversation.id': conversation,
    });
    const served = one('SendMessage', SpanKind.SERVER);
    expect(served.attributes).toMatchObject({
      'a2a.method.name': 'SendMessage',
      'a2a.message.id': message.messageId,
      'a2a.task.id': outer.task.id,
      'a2a.task.state': 'TASK_STATE_COMPLETED',
      'a2a.protocol.version': '1.0',
      'gen_ai.conversation.id': conversation,
      'gen_ai.agent.name': 'orders',
    });
    const send = one('send a2a.traced', SpanKind.PRODUCER);
    const process = one('process a2a.traced', SpanKind.CONSUMER);
    const jobId = send.attributes['messaging.message.id'];
    expect(typeof jobId).toBe('string');
    expect(send.attributes).toMatchObject({
      'messaging.system': 'bullmq',
      'messaging.destination.name': 'a2a.traced',
      'messaging.operation.type': 'send',
      'messaging.operation.name': 'send',
    });
    expect(process.attributes).toMatchObject({
      'messaging.system': 'bullmq',
      'messaging.destination.name': 'a2a.traced',
      'messaging.message.id': jobId,
      'messaging.operation.type': 'process',
      'messaging.operation.name': 'process',
    });
    expect(spans().every((span) => span.status.code !== SpanStatusCode.ERROR)).toBe(true);

    // The envelope's trace slot carries the send span's W3C context.
    const queue = new Queue(address().queue, { connection: redis, prefix });
    try {
      const job = await queue.getJob(String(jobId));
      expect(job?.data.trace.traceparent).toBe(`00-${traceId}-${send.spanContext().spanId}-01`);
    } finally {
      await queue.close();
    }
  });

  it('keeps a streaming call under one span per side until the stream ends, with the agent run inside', async () => {
    const events: StreamResponse[] = [];
    await tracer.startActiveSpan('test stream', async (span) => {
      try {
        for await (const event of client.sendMessageStream(sendRequest(userMessage('Where is A10086?')))) {
          events.push(event);
        }
      } finally {
        span.end();
      }
    });
    const last = events.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await vi.waitFor(() => expect(named('process a2a.traced')).toHaveLength(1));

    const tool = one('execute_tool get_order');
    expect(ancestry(tool)).toEqual([
      'INTERNAL test stream',
      'CLIENT SendStreamingMessage',
      'PRODUCER send a2a.traced',
      'CONSUMER process a2a.traced',
      'SERVER SendStreamingMessage',
      'INTERNAL invoke_agent orders',
      'INTERNAL execute_tool get_order',
    ]);
    for (const kind of [SpanKind.CLIENT, SpanKind.SERVER]) {
      const call = one('SendStreamingMessage', kind);
      expect(call.attributes).toMatchObject({
        'a2a.method.name': 'SendStreamingMessage',
        'a2a.task.state': 'TASK_STATE_COMPLETED',
      });
      // The call's span outlives the agent run it carried.
      const run = one('invoke_agent orders');
      expect(hrtimeNanos(call.endTime)).toBeGreaterThanOrEqual(hrtimeNanos(run.endTime));
    }
  });

  it('records an unknown task as a failed GetTask on both sides, with the A2A error name and our message', async () => {
    const missing = randomUUID();
    await expect(client.getTask({ tenant: '', id: missing })).rejects.toBeInstanceOf(TaskNotFoundError);
    await vi.waitFor(() => expect(named('process a2a.traced')).toHaveLength(1));

    const served = one('GetTask', SpanKind.SERVER);
    expect(served.attributes).toMatchObject({
      'a2a.method.name': 'GetTask',
      'a2a.task.id': missing,
      'error.type': 'TaskNotFoundError',
    });
    expect(served.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'GetTask failed: TaskNotFoundError.',
    });
    expect(served.events).toEqual([]);
    expect(parentOf(served)?.name).toBe('process a2a.traced');

    const caller = one('GetTask', SpanKind.CLIENT);
    expect(caller.attributes['error.type']).toBe('TaskNotFoundError');
    expect(caller.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('records a poison job on its process span', async () => {
    const queue = new Queue(address().queue, { connection: redis, prefix });
    try {
      const job = await queue.add('junk', { hello: 'world' }, { attempts: 1 });
      await vi.waitFor(() => expect(named('process a2a.traced')).toHaveLength(1));
      const process = one('process a2a.traced', SpanKind.CONSUMER);
      expect(process.attributes).toMatchObject({
        'messaging.message.id': job.id,
        'messaging.operation.type': 'process',
        'error.type': 'InvalidJobEnvelope',
      });
      expect(process.status.code).toBe(SpanStatusCode.ERROR);
      expect(process.status.message).not.toContain('hello');
    } finally {
      await queue.close();
    }
  });
});

describe('tracing over HTTP', () => {
  it('opens a CLIENT span per call (tracedTransportFactory) and the SERVER span around the agent run, continuing its traceparent', async () => {
    exporter.reset();
    const { agent, model } = ordersAgent();
    const shell = express();
    const server = await startA2aHttpServer({ app: shell });
    try {
      const card = buildAgentCard({ agent, interfaces: a2aHttpInterfaces({ baseUrl: server.url }) });
      const hosted = createAgentHandler({
        agent,
        model,
        card,
        tracer: otelAgentTracer(trace.getTracer('agent-runtime')),
        logger: silentLogger(),
      });
      shell.use(createA2aHttpApp({ requestHandler: hosted.requestHandler, card, logger: silentLogger() }));
      // An instrumented caller: W3C headers on every request.
      const fetchImpl: typeof fetch = (input, init) => {
        const headers: Record<string, string> = {};
        propagation.inject(context.active(), headers);
        const merged = new Headers(init?.headers);
        for (const [name, value] of Object.entries(headers)) merged.set(name, value);
        return fetch(input, { ...init, headers: merged });
      };
      const client = await new ClientFactory({
        transports: [tracedTransportFactory({ factory: new JsonRpcTransportFactory({ fetchImpl }) })],
        cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
      }).createFromUrl(server.url);

      const message = userMessage('Where is A10086?');
      const outer = await tracer.startActiveSpan('test http request', async (span) => {
        try {
          return { span, task: (await client.sendMessage(sendRequest(message))) as Task };
        } finally {
          span.end();
        }
      });
      expect(outer.task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

      const served = one('SendMessage', SpanKind.SERVER);
      const expected = {
        'a2a.method.name': 'SendMessage',
        'a2a.message.id': message.messageId,
        'a2a.task.id': outer.task.id,
        'a2a.task.state': 'TASK_STATE_COMPLETED',
        'gen_ai.conversation.id': outer.task.contextId,
        'a2a.protocol.version': '1.0',
      };
      expect(served.attributes).toMatchObject(expected);
      expect(one('SendMessage', SpanKind.CLIENT).attributes).toMatchObject({
        ...expected,
        'server.address': '127.0.0.1',
        'server.port': Number(new URL(server.url).port),
      });
      expect(served.spanContext().traceId).toBe(outer.span.spanContext().traceId);
      expect(ancestry(one('execute_tool get_order'))).toEqual([
        'INTERNAL test http request',
        'CLIENT SendMessage',
        'SERVER SendMessage',
        'INTERNAL invoke_agent orders',
        'INTERNAL execute_tool get_order',
      ]);
    } finally {
      await server.close();
    }
  });
});

function hrtimeNanos([seconds, nanos]: readonly [number, number]): bigint {
  return BigInt(seconds) * 1_000_000_000n + BigInt(nanos);
}
