import { randomUUID } from 'node:crypto';
import type { Task } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { type AgentExecutor, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { Queue } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { A2aQueueServer, createRedisConnection, QueueTransportFactory } from '../src/index.ts';
import { EchoExecutor, echoCard, sendRequest, userMessage } from './support/echo-agent.ts';

const redis = createRedisConnection({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const silent = { warn: () => {}, error: () => {} };
const prefix = `{test:${randomUUID()}}`;
const address = { queue: 'traced', prefix };

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
});

afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  propagation.disable();
  context.disable();
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

let close: () => Promise<void> = async () => {};
afterEach(async () => {
  await close();
  exporter.reset();
});

const spans = () => exporter.getFinishedSpans();
const named = (name: string) => spans().filter((span) => span.name === name);
const parentOf = (span: ReadableSpan) =>
  spans().find((other) => other.spanContext().spanId === span.parentSpanContext?.spanId);
function ancestry(span: ReadableSpan): string[] {
  const parent = parentOf(span);
  return [...(parent ? ancestry(parent) : []), `${SpanKind[span.kind]} ${span.name}`];
}

/** The echo executor, doing its work under a span of its own, as an instrumented agent would. */
function tracedEcho(): AgentExecutor {
  const echo = new EchoExecutor();
  const tracer = trace.getTracer('echo-agent');
  return {
    execute: (request, bus) =>
      tracer.startActiveSpan('echo work', (span) => echo.execute(request, bus).finally(() => span.end())),
    cancelTask: (taskId) => echo.cancelTask(taskId),
  };
}

async function serve() {
  const card = echoCard(address);
  const server = new A2aQueueServer({
    requestHandler: new DefaultRequestHandler(card, new InMemoryTaskStore(), tracedEcho()),
    card,
    address,
    redis,
    logger: silent,
  });
  await server.start();
  const factory = new QueueTransportFactory({ redis, timeoutMs: 10_000, logger: silent });
  close = async () => {
    await factory.close();
    await server.close({ graceMs: 2_000 });
  };
  return new ClientFactory({ transports: [factory] }).createFromAgentCard(card);
}

describe('tracing', () => {
  it('makes one trace of a call: the client span, send, process, and the handler’s work under process', async () => {
    const client = await serve();
    const message = userMessage('hello');
    const caller = trace.getTracer('test');
    const outer = await caller.startActiveSpan('test request', async (span) => {
      try {
        return { span, task: (await client.sendMessage(sendRequest(message))) as Task };
      } finally {
        span.end();
      }
    });
    // The worker ends its process span after writing the reply, so it may finish after the caller.
    await vi.waitFor(() => expect(named('process traced')).toHaveLength(1));

    const [work] = named('echo work');
    if (!work) throw new Error('no span of the executor');
    expect(ancestry(work)).toEqual([
      'INTERNAL test request',
      'CLIENT SendMessage',
      'PRODUCER send traced',
      'CONSUMER process traced',
      'INTERNAL echo work',
    ]);
    expect(new Set(spans().map((span) => span.spanContext().traceId))).toEqual(
      new Set([outer.span.spanContext().traceId]),
    );
    const [call] = named('SendMessage');
    expect(call?.instrumentationScope.name).toBe('@switchboard/a2a-bullmq');
    expect(call?.attributes).toMatchObject({
      'a2a.method.name': 'SendMessage',
      'a2a.message.id': message.messageId,
      'a2a.task.id': outer.task.id,
      'a2a.task.state': 'TASK_STATE_COMPLETED',
      'gen_ai.conversation.id': outer.task.contextId,
    });
    const [send] = named('send traced');
    expect(send?.attributes).toMatchObject({
      'messaging.system': 'bullmq',
      'messaging.destination.name': 'traced',
      'messaging.operation.type': 'send',
    });
    expect(named('process traced')[0]?.attributes['messaging.message.id']).toBe(
      send?.attributes['messaging.message.id'],
    );
  });

  it('records a job that is not an envelope on its process span, failed, without its content', async () => {
    await serve();
    const queue = new Queue(address.queue, { connection: redis, prefix });
    try {
      const job = await queue.add('junk', { secret: 'hello' }, { attempts: 1 });
      await vi.waitFor(() => expect(named('process traced')).toHaveLength(1));
      const [process] = named('process traced');
      expect(process?.attributes).toMatchObject({
        'messaging.message.id': job.id,
        'error.type': 'InvalidJobEnvelope',
      });
      expect(process?.status.code).toBe(SpanStatusCode.ERROR);
      expect(process?.status.message).not.toContain('hello');
    } finally {
      await queue.close();
    }
  });
});
