import { runAgent } from '@switchboard/agent';
import { OfflineModel } from '@switchboard/offline-model';
import { OpenAIChatModel } from '@switchboard/openai';
import { type OpenAICompatibleServer, startOpenAICompatibleServer } from '@switchboard/openai/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createCommsAgent, createOrdersAgent, Ticket } from '../src/index.ts';
import { ada, now, quiet, seededMemoryStore, toolResults } from './support/shop.ts';

let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function remoteModel() {
  // The offline planner answers behind a real OpenAI-compatible HTTP endpoint.
  server = await startOpenAICompatibleServer({
    model: new OfflineModel({ now }),
    apiKey: 'sk-local-test-1234',
  });
  return new OpenAIChatModel({
    model: 'offline-planner',
    apiKey: 'sk-local-test-1234',
    baseURL: server.baseURL,
  });
}

describe('the workers on the real openai client over HTTP', () => {
  it('story 1: the orders agent chains get_order and estimate_delivery', async () => {
    const model = await remoteModel();
    const agent = createOrdersAgent({ store: await seededMemoryStore() });
    const result = await runAgent({
      agent,
      model,
      input: 'Where is my order A10086 and when will it arrive?',
      principal: ada,
      ...quiet,
    });
    expect(result.toolCalls.map((call) => call.tool)).toEqual(['get_order', 'estimate_delivery']);
    expect(result.output).toContain('estimated delivery: 2026-12-01');
    expect(server?.requests).toHaveLength(3);
    for (const request of server?.requests ?? []) {
      expect(request.tools?.map((tool) => tool.function.name)).toEqual([
        'get_order',
        'estimate_delivery',
        'update_shipping_address',
        'refund_order',
      ]);
      expect(request.messages[0]).toMatchObject({
        role: 'system',
        content: expect.stringContaining('orders desk'),
      });
    }
  });

  it('story 5: the comms agent asks for the ticket as strict json_schema output and validates it', async () => {
    const model = await remoteModel();
    const agent = createCommsAgent({ store: await seededMemoryStore(), model });
    const input = "I'm furious, my kettle from order A10086 arrived broken and I need this fixed today!";
    const result = await runAgent({ agent, model, input, principal: ada, ...quiet });
    const ticket = Ticket.parse(toolResults(result)[0]?.data);
    expect(ticket).toMatchObject({ sentiment: 'negative', product: 'Stainless Steel Kettle' });
    const structured = server?.requests.find((request) => request.response_format?.type === 'json_schema');
    expect(structured?.response_format).toMatchObject({ json_schema: { name: 'ticket', strict: true } });
  });
});
