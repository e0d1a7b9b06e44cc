import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { defineAgent, defineTool, runAgent } from '@switchboard/agent';
import { MemoryLogger, ScriptedModel } from '@switchboard/agent/testing';
import { GEN_AI } from '@switchboard/semconv';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgentTracer } from '../src/index.ts';
import { everythingIn, startMemoryTracing } from './support/otel-memory.ts';

const CANARY = 'sk-canary-1234567890abcdef';
const CANARY_HOST = 'parcels.internal.example';
const CONTENT_KEYS = [
  GEN_AI.inputMessages,
  GEN_AI.outputMessages,
  GEN_AI.toolCallArguments,
  GEN_AI.toolCallResult,
];

const getOrder = defineTool({
  name: 'get_order',
  summary: 'Look up an order by its id.',
  whenToUse: 'The user asks about an order.',
  input: z.object({ orderId: z.string() }),
  risk: 'read',
  handler: ({ orderId }) => ({ orderId, status: 'shipped' }),
});

const trackParcel = defineTool({
  name: 'track_parcel',
  summary: 'Track a parcel with the carrier.',
  whenToUse: 'The user asks where a parcel is.',
  input: z.object({ orderId: z.string() }),
  risk: 'read',
  fallbackMessage: 'Parcel tracking is down right now.',
  handler: () => {
    throw new Error(`connect ECONNREFUSED ${CANARY_HOST}:443 (key ${CANARY})`);
  },
});

const agent = defineAgent({
  name: 'orders',
  instructions: 'You help customers with their orders.',
  tools: [getOrder, trackParcel],
});

async function runOrders(captureContent: boolean): Promise<void> {
  const model = new ScriptedModel({
    modelId: 'gpt-test',
    turns: [
      {
        toolCalls: [
          { name: 'get_order', arguments: { orderId: 'A10086', apiKey: CANARY } },
          { name: 'track_parcel', arguments: { orderId: 'A10086' } },
        ],
        usage: { promptTokens: 120, completionTokens: 30 },
      },
      { text: 'Your order A10086 has shipped.', usage: { promptTokens: 200, completionTokens: 12 } },
    ],
  });
  await runAgent({
    agent,
    model,
    input: 'Where is order A10086?',
    conversationId: 'conv-1',
    tracer: createAgentTracer({ captureContent }),
    logger: new MemoryLogger(),
  });
}

const memory = startMemoryTracing();
const named = (name: string) => memory.spans().filter((span) => span.name === name);
const one = (name: string): ReadableSpan => {
  const [span, ...rest] = named(name);
  if (!span || rest.length > 0) throw new Error(`expected one span "${name}", got ${named(name).length}`);
  return span;
};

describe('createAgentTracer', () => {
  beforeAll(() => memory.exporter.reset());
  afterEach(() => memory.exporter.reset());
  afterAll(() => memory.stop());

  it('emits invoke_agent → chat / execute_tool spans with GenAI attributes and no content', async () => {
    await runOrders(false);
    const root = one('invoke_agent orders');
    const chats = named('chat gpt-test');
    const [getOrderSpan, trackSpan] = [one('execute_tool get_order'), one('execute_tool track_parcel')];
    expect(chats).toHaveLength(2);
    expect(memory.spans()).toHaveLength(5);
    for (const child of [...chats, getOrderSpan, trackSpan]) {
      expect(child.spanContext().traceId).toBe(root.spanContext().traceId);
      expect(child.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
    }
    expect(root.parentSpanContext).toBeUndefined();
    expect([root.kind, chats[0]?.kind, getOrderSpan.kind]).toEqual([
      SpanKind.INTERNAL,
      SpanKind.CLIENT,
      SpanKind.INTERNAL,
    ]);
    expect(root.attributes).toMatchObject({
      [GEN_AI.operationName]: 'invoke_agent',
      [GEN_AI.agentName]: 'orders',
      [GEN_AI.conversationId]: 'conv-1',
      [GEN_AI.providerName]: 'scripted',
      [GEN_AI.requestModel]: 'gpt-test',
      [GEN_AI.usageInputTokens]: 320,
      [GEN_AI.usageOutputTokens]: 42,
    });
    expect(chats[0]?.attributes).toMatchObject({
      [GEN_AI.operationName]: 'chat',
      [GEN_AI.providerName]: 'scripted',
      [GEN_AI.requestModel]: 'gpt-test',
      [GEN_AI.responseModel]: 'gpt-test',
      [GEN_AI.conversationId]: 'conv-1',
      [GEN_AI.usageInputTokens]: 120,
      [GEN_AI.usageOutputTokens]: 30,
      [GEN_AI.responseFinishReasons]: ['tool_calls'],
    });
    expect(chats[1]?.attributes[GEN_AI.responseFinishReasons]).toEqual(['stop']);
    expect(getOrderSpan.attributes).toMatchObject({
      [GEN_AI.operationName]: 'execute_tool',
      [GEN_AI.toolName]: 'get_order',
      [GEN_AI.toolCallId]: 'call_0_0',
      [GEN_AI.toolType]: 'function',
    });
    expect(getOrderSpan.status.code).toBe(SpanStatusCode.UNSET);
    expect(getOrderSpan.attributes['error.type']).toBeUndefined();
    expect(trackSpan.attributes).toMatchObject({
      [GEN_AI.toolCallId]: 'call_0_1',
      'error.type': 'TOOL_FAILED',
    });
    expect(trackSpan.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'Parcel tracking is down right now.',
    });
    for (const span of memory.spans()) {
      expect(span.events).toEqual([]);
      for (const key of CONTENT_KEYS) expect(span.attributes[key]).toBeUndefined();
      expect(everythingIn(span)).not.toContain(CANARY);
      expect(everythingIn(span)).not.toContain(CANARY_HOST);
    }
  });

  it('records tool arguments and results, redacted, when content capture is on', async () => {
    await runOrders(true);
    const getOrderSpan = one('execute_tool get_order');
    const args = JSON.parse(String(getOrderSpan.attributes[GEN_AI.toolCallArguments]));
    expect(args).toEqual({ orderId: 'A10086', apiKey: '[REDACTED]' });
    expect(JSON.parse(String(getOrderSpan.attributes[GEN_AI.toolCallResult]))).toEqual({
      ok: true,
      data: { orderId: 'A10086', status: 'shipped' },
    });
    const trackSpan = one('execute_tool track_parcel');
    expect(JSON.parse(String(trackSpan.attributes[GEN_AI.toolCallResult]))).toMatchObject({
      ok: false,
      error: { code: 'TOOL_FAILED', message: 'Parcel tracking is down right now.' },
    });
    for (const span of memory.spans()) {
      expect(everythingIn(span)).not.toContain(CANARY);
      expect(everythingIn(span)).not.toContain(CANARY_HOST);
    }
  });

  it('records offered input and output messages as redacted, bounded JSON only with capture on', async () => {
    const offer = (captureContent: boolean) =>
      createAgentTracer({ captureContent, maxContentLength: 200 }).inSpan(
        { operation: 'chat', name: 'chat gpt-test', attributes: { [GEN_AI.operationName]: 'chat' } },
        async (span) => {
          span.offerContent?.({
            [GEN_AI.inputMessages]: [
              { role: 'user', parts: [{ type: 'text', content: `my key is ${CANARY}` }] },
            ],
            [GEN_AI.outputMessages]: [
              { role: 'assistant', parts: [{ type: 'text', content: 'x'.repeat(500) }] },
            ],
            [GEN_AI.toolCallArguments]: '{"user":"ann","password":"hunter2"}',
          });
        },
      );
    await offer(false);
    await offer(true);
    const [dropped, captured] = named('chat gpt-test');
    expect(dropped?.attributes[GEN_AI.inputMessages]).toBeUndefined();
    const input = String(captured?.attributes[GEN_AI.inputMessages]);
    expect(JSON.parse(input)).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'my key is [REDACTED]' }] },
    ]);
    const output = String(captured?.attributes[GEN_AI.outputMessages]);
    expect(output).toHaveLength(200);
    expect(output.endsWith('…')).toBe(true);
    expect(JSON.parse(String(captured?.attributes[GEN_AI.toolCallArguments]))).toEqual({
      user: 'ann',
      password: '[REDACTED]',
    });
  });

  it('marks a span failed by an unexpected exception with a type only, never its message', async () => {
    const tracer = createAgentTracer();
    const failing = tracer.inSpan(
      { operation: 'execute_tool', name: 'execute_tool boom', attributes: {} },
      async () => {
        throw Object.assign(new Error(`db at ${CANARY_HOST} refused ${CANARY}`), { code: 'ECONNREFUSED' });
      },
    );
    await expect(failing).rejects.toThrow(CANARY_HOST);
    const span = one('execute_tool boom');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBe('ECONNREFUSED');
    expect(everythingIn(span)).not.toContain(CANARY_HOST);
    expect(span.events).toEqual([]);
  });
});
