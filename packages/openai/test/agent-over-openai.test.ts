import { defineAgent, runAgent } from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { OpenAIChatModel } from '../src/index.ts';
import { type OpenAICompatibleServer, startOpenAICompatibleServer } from '../src/testing/index.ts';
import { getOrder } from './support/shop-tools.ts';

let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('an agent on the real openai client over HTTP', () => {
  it('sends the tool declarations on every request, runs parallel calls, and streams the answer', async () => {
    const scripted = new ScriptedModel({
      turns: [
        {
          toolCalls: [
            { name: 'get_order', arguments: { orderId: 'A10086' } },
            { name: 'get_order', arguments: { orderId: 'A20001' } },
          ],
        },
        { text: 'A10086 has shipped with DHL; A20001 is still being prepared.' },
      ],
    });
    server = await startOpenAICompatibleServer({ model: scripted, apiKey: 'sk-local-test-0000000000' });
    const model = new OpenAIChatModel({
      model: 'gpt-4.1-mini',
      apiKey: 'sk-local-test-0000000000',
      baseURL: server.baseURL,
    });
    const agent = defineAgent({
      name: 'orders',
      instructions: 'Answer order questions with tools.',
      tools: [getOrder],
    });
    const deltas: string[] = [];
    const result = await runAgent({
      agent,
      model,
      input: 'Where are A10086 and A20001?',
      onEvent: (event) => {
        if (event.type === 'text-delta') deltas.push(event.delta);
      },
    });

    expect(result.stopReason).toBe('model');
    expect(result.output).toBe('A10086 has shipped with DHL; A20001 is still being prepared.');
    expect(deltas.join('')).toBe(result.output);
    expect(server.requests).toHaveLength(2);
    for (const request of server.requests) {
      expect(request.stream).toBe(true);
      expect(request.tools?.map((tool) => tool.function.name)).toEqual(['get_order']);
      expect(request.tools?.[0]?.function.description).toContain('Use when:');
    }
    const sent = server.requests[1]?.messages ?? [];
    expect(sent.slice(-2).map((message) => message.role)).toEqual(['tool', 'tool']);
    expect(sent.at(-2)).toMatchObject({ tool_call_id: 'call_0_0' });
    expect(sent.at(-1)?.content).toContain('"status":"processing"');
    expect(result.usage.promptTokens).toBeGreaterThan(0);
  });

  it('with streamModel false asks for whole answers (no stream, no text deltas) and runs the same', async () => {
    const scripted = new ScriptedModel({
      turns: [
        { toolCalls: [{ name: 'get_order', arguments: { orderId: 'A10086' } }] },
        { text: 'A10086 has shipped with DHL.' },
      ],
    });
    server = await startOpenAICompatibleServer({ model: scripted, apiKey: 'sk-local-test-0000000000' });
    const model = new OpenAIChatModel({
      model: 'gpt-4.1-mini',
      apiKey: 'sk-local-test-0000000000',
      baseURL: server.baseURL,
    });
    const agent = defineAgent({ name: 'orders', instructions: 'Answer order questions.', tools: [getOrder] });
    const events: string[] = [];
    const result = await runAgent({
      agent,
      model,
      input: 'Where is A10086?',
      streamModel: false,
      onEvent: (event) => events.push(event.type),
    });
    expect(result.output).toBe('A10086 has shipped with DHL.');
    expect(result.toolCalls.map((call) => [call.tool, call.status])).toEqual([['get_order', 'succeeded']]);
    expect(server.requests.map((request) => request.stream ?? false)).toEqual([false, false]);
    expect(events).not.toContain('text-delta');
    expect(result.usage.promptTokens).toBeGreaterThan(0);
  });
});
