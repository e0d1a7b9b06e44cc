import {
  AgentError,
  type AnyTool,
  ApprovalWait,
  type ChatMessage,
  type ChatRequest,
  type ChatResponse,
  defineTool,
  estimatePromptTokens,
  silentLogger,
  type ToolContext,
  Toolset,
  toModelSchema,
  toolError,
  toolOk,
} from '@switchboard/agent';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OfflineModel } from '../src/index.ts';

const OrderId = z.string().regex(/^A\d{5}$/, 'must be the letter A and 5 digits, e.g. A10086');
const Sku = z.string().regex(/^SKU-\d{4}$/, 'must be SKU- and 4 digits');

const getOrder = defineTool({
  name: 'get_order',
  summary: 'Look up an order by its id: status, items, carrier and tracking number.',
  whenToUse: 'The user asks about the status, contents or shipping of an order they placed.',
  whenNotToUse: 'The user asks when a parcel will arrive; use estimate_delivery.',
  input: z.object({ orderId: OrderId }),
  risk: 'read',
  handler: ({ orderId }) => ({
    orderId,
    status: 'shipped',
    carrier: 'DHL',
    trackingNumber: '00340434',
    sku: 'SKU-0042',
  }),
});
const estimateDelivery = defineTool({
  name: 'estimate_delivery',
  summary: 'Estimate when an order will arrive.',
  whenToUse: 'The user asks when their parcel or delivery will arrive.',
  input: z.object({ orderId: OrderId, postcode: z.string().optional() }),
  risk: 'read',
  handler: () => ({ expectedOn: '2025-03-17' }),
});
const checkStock = defineTool({
  name: 'check_stock',
  summary: 'Check how many units of a product are in stock in the warehouse.',
  whenToUse: 'The user asks whether a product is available or in stock, for a given quantity.',
  whenNotToUse: 'The user asks about delivery times; use estimate_delivery.',
  input: z.object({
    sku: Sku.describe('Stock keeping unit, e.g. SKU-1234'),
    quantity: z.number().int().min(1),
  }),
  risk: 'read',
  handler: ({ sku, quantity }) => ({ sku, unitsInStock: 7, enough: quantity <= 7 }),
});
const shop = [getOrder, estimateDelivery, checkStock];

const refundPayment = defineTool({
  name: 'refund_payment',
  summary: 'Refund a payment to the customer.',
  whenToUse: 'The customer wants their money back for an order.',
  whenNotToUse: 'The order has not been delivered yet; use cancel_order instead.',
  input: z.object({ orderId: OrderId }),
  risk: 'write',
  handler: () => ({ refunded: true }),
});
const cancelOrder = defineTool({
  name: 'cancel_order',
  summary: 'Cancel an order before it is delivered.',
  whenToUse: 'The user no longer wants an order that is still on its way.',
  input: z.object({ orderId: OrderId }),
  risk: 'write',
  handler: () => ({ canceled: true }),
});

const ExtractTicket = z.object({
  sentiment: z.enum(['positive', 'neutral', 'negative']),
  product: z.string(),
  urgency: z.number().int().min(1).max(5),
});

const user = (content: string): ChatMessage => ({ role: 'user', content });
const ask = (content: string, tools: readonly AnyTool[] = shop, extra: Partial<ChatRequest> = {}) =>
  new OfflineModel().generate({
    messages: [user(content)],
    tools: new Toolset(tools).declarations(),
    ...extra,
  });
const calls = (response: ChatResponse) =>
  (response.message.tool_calls ?? []).map((call) => ({
    name: call.function.name,
    args: JSON.parse(call.function.arguments),
  }));

const context = (callId: string): ToolContext => ({
  signal: new AbortController().signal,
  conversationId: 'offline-test',
  callId,
  attempt: 1,
  idempotencyKey: callId,
  credentials: { get: (name) => name },
  principal: undefined,
  logger: silentLogger(),
  waitForApproval: (request) => new ApprovalWait(request),
  report: () => {},
});

/** Plays a conversation the way the runtime does: validate arguments, run the handler, send the envelope. */
async function converse(model: OfflineModel, tools: readonly AnyTool[], request: string, maxTurns = 8) {
  const toolset = new Toolset(tools);
  const messages: ChatMessage[] = [user(request)];
  for (let turn = 0; turn < maxTurns; turn++) {
    const response = await model.generate({ messages, tools: toolset.declarations() });
    messages.push(response.message);
    if (!response.message.tool_calls) return { answer: response.message.content ?? '', messages };
    for (const call of response.message.tool_calls) {
      const tool = toolset.get(call.function.name);
      const parsed = tool?.input.safeParse(JSON.parse(call.function.arguments));
      let envelope = toolError('UNKNOWN_TOOL', `There is no tool named ${call.function.name}.`);
      if (tool && parsed && !parsed.success) envelope = toolError('INVALID_ARGUMENTS', parsed.error.message);
      if (tool && parsed?.success) {
        try {
          envelope = toolOk(await tool.handler(parsed.data, context(call.id)));
        } catch {
          envelope = toolError('TOOL_FAILED', tool.fallbackMessage);
        }
      }
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(envelope) });
    }
  }
  throw new Error('the conversation did not end');
}

describe('OfflineModel picking tools', () => {
  it('picks the tool whose description matches the request, with its argument filled', async () => {
    const response = await ask('Where is my order A10086?');
    expect(calls(response)).toEqual([{ name: 'get_order', args: { orderId: 'A10086' } }]);
    expect(response.finishReason).toBe('tool_calls');
    expect(response.message.tool_calls?.[0]?.id).toBe('offline_0_0');
    expect(calls(await ask('When will my parcel A10086 arrive?'))).toEqual([
      { name: 'estimate_delivery', args: { orderId: 'A10086' } },
    ]);
  });

  it('is steered away from a tool by its "Do not use when" text', async () => {
    const request = 'Order A10086 was not delivered yet and I want a refund of my payment';
    expect(calls(await ask(request, [refundPayment, cancelOrder]))[0]?.name).toBe('cancel_order');
    const withoutWarning = defineTool({ ...refundPayment, whenNotToUse: undefined });
    expect(calls(await ask(request, [withoutWarning, cancelOrder]))[0]?.name).toBe('refund_payment');
  });

  it('normalises a value to the case its pattern wants, and takes numbers within range', async () => {
    expect(calls(await ask('status of order a10086 please'))[0]?.args).toEqual({ orderId: 'A10086' });
    const stock = await ask('Is sku-0042 in stock? I need 0 now, or maybe 3 later.');
    expect(calls(stock)).toEqual([{ name: 'check_stock', args: { sku: 'SKU-0042', quantity: 3 } }]);
  });

  it('fills an enum from an inflected mention and a date relative to now', async () => {
    const listOrders = defineTool({
      name: 'list_orders',
      summary: 'List the orders of the customer with a given status since a date.',
      whenToUse: 'The user wants to see several of their orders.',
      input: z.object({ status: z.enum(['pending', 'shipped', 'delivered']), since: z.iso.date() }),
      risk: 'read',
      handler: () => [],
    });
    const model = new OfflineModel({ now: () => new Date('2025-03-14T10:00:00Z') });
    const messages = [user('List my orders that are shipping since yesterday')];
    const request = { messages, tools: new Toolset([listOrders]).declarations() };
    expect(calls(await model.generate(request))[0]?.args).toEqual({ status: 'shipped', since: '2025-03-13' });
  });

  it('calls two tools at once only when the request has two separate intents', async () => {
    const both = await ask('What is the status of order A10086? Also, is SKU-0042 in stock? I need 2.');
    expect(calls(both)).toEqual([
      { name: 'get_order', args: { orderId: 'A10086' } },
      { name: 'check_stock', args: { sku: 'SKU-0042', quantity: 2 } },
    ]);
    expect(both.message.tool_calls?.map((call) => call.id)).toEqual(['offline_0_0', 'offline_0_1']);
    expect(calls(await ask('What is the status of order A10086?'))).toHaveLength(1);
  });

  it('asks for a missing required argument in the form the schema wants instead of calling', async () => {
    const response = await ask('Where is my order?');
    expect(response.message.tool_calls).toBeUndefined();
    expect(response.finishReason).toBe('stop');
    expect(response.message.content).toContain('get_order');
    expect(response.message.content).toContain('the order id (pattern ^A\\d{5}$)');
    const stock = await ask('Is SKU-0042 in stock?');
    expect(stock.message.content).toMatch(/check_stock .*quantity \(a whole number at least 1\)/);
  });

  it('says it cannot handle an unrelated request and lists what it can do', async () => {
    const response = await ask('What will the weather be like in Paris?');
    expect(response.message.tool_calls).toBeUndefined();
    expect(response.message.content).toContain('cannot handle');
    for (const tool of shop) expect(response.message.content).toContain(`${tool.name}: ${tool.summary}`);
    const none = await new OfflineModel().generate({ messages: [user('Where is order A10086?')] });
    expect(none.message.content).toMatch(/cannot handle.*no tools/);
  });

  it('answers without tools when toolChoice is none', async () => {
    const response = await ask('Where is my order A10086?', shop, { toolChoice: 'none' });
    expect(response.message.tool_calls).toBeUndefined();
    expect(response.message.content).toContain('without tools');
  });
});

describe('OfflineModel after tool results', () => {
  it('chains a second tool from the first result and answers from both results', async () => {
    const { answer, messages } = await converse(
      new OfflineModel(),
      shop,
      'Look up order A10086 and tell me if its item is in stock, I need 2.',
    );
    const made = messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []));
    expect(made.map((call) => [call.function.name, call.function.arguments])).toEqual([
      ['get_order', '{"orderId":"A10086"}'],
      ['check_stock', '{"sku":"SKU-0042","quantity":2}'],
    ]);
    expect(answer).toContain('get_order (order id: A10086) → status: shipped, carrier: DHL');
    expect(answer).toContain('tracking number: 00340434');
    expect(answer).toContain('units in stock: 7');
  });

  it('relays the message of a failed step and still reports the data of the others', async () => {
    const broken = defineTool({
      ...checkStock,
      handler: () => {
        throw new Error('warehouse database down');
      },
    });
    const { answer } = await converse(
      new OfflineModel(),
      [getOrder, broken],
      'Order A10086: is its item in stock? I need 2.',
    );
    expect(answer).toContain('status: shipped');
    expect(answer).toContain('check_stock (sku: SKU-0042, quantity: 2) failed');
    expect(answer).toContain(broken.fallbackMessage);
    expect(answer).not.toContain('warehouse database down');
  });

  it('does not retry a call whose arguments were rejected, nor one waiting for approval', async () => {
    for (const [code, message] of [
      ['INVALID_ARGUMENTS', 'orderId must be the letter A and 5 digits, e.g. A10086.'],
      ['APPROVAL_REQUIRED', 'Cancelling order A10086 waits for a human approval.'],
    ] as const) {
      const messages: ChatMessage[] = [
        user('Please cancel order A10086, I no longer want it'),
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'c1',
              type: 'function',
              function: { name: 'cancel_order', arguments: '{"orderId":"A10086"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: JSON.stringify(toolError(code, message)) },
      ];
      const response = await new OfflineModel().generate({
        messages,
        tools: new Toolset([cancelOrder]).declarations(),
      });
      expect(response.message.tool_calls).toBeUndefined();
      expect(response.message.content).toContain(
        `cancel_order (order id: A10086) ${code === 'APPROVAL_REQUIRED' ? 'did not run yet' : 'failed'}`,
      );
      expect(response.message.content).toContain(message);
    }
  });
});

describe('OfflineModel contract', () => {
  it('answers a json_schema request with JSON that the zod schema accepts', async () => {
    const model = new OfflineModel();
    const format = {
      type: 'json_schema',
      json_schema: { name: 'ticket', schema: toModelSchema(ExtractTicket) },
    } as const;
    const text = 'Customer wrote negatively about "Acme Blender 3000": urgency 9, no wait, urgency 4 of 5.';
    const response = await model.generate({ messages: [user(text)], responseFormat: format });
    const parsed = ExtractTicket.parse(JSON.parse(response.message.content ?? ''));
    expect(parsed).toEqual({ sentiment: 'negative', product: 'Acme Blender 3000', urgency: 4 });
    const partial = await model.generate({
      messages: [user('A neutral note about "Acme Kettle"')],
      responseFormat: format,
    });
    expect(JSON.parse(partial.message.content ?? '')).toEqual({
      sentiment: 'neutral',
      product: 'Acme Kettle',
    });
    const loose = await model.generate({
      messages: [user('hello')],
      responseFormat: { type: 'json_object' },
    });
    expect(JSON.parse(loose.message.content ?? '')).toEqual({ text: 'hello' });
  });

  it('is deterministic, streams the same answer, and reports estimated usage', async () => {
    const request = {
      messages: [user('Where is my order A10086?')],
      tools: new Toolset(shop).declarations(),
    };
    const first = await new OfflineModel().generate(request);
    expect(await new OfflineModel().generate(request)).toEqual(first);
    const events = [];
    for await (const event of new OfflineModel().stream(request)) events.push(event);
    expect(events.at(-1)).toEqual({ type: 'finish', response: first });
    expect(first.usage.promptTokens).toBe(estimatePromptTokens(request.messages, request.tools));
    expect(first.usage.completionTokens).toBeGreaterThan(0);
  });

  it('rejects with ABORTED when the signal is aborted, and refuses bad options', async () => {
    const controller = new AbortController();
    controller.abort();
    const request = { messages: [user('Where is my order A10086?')], signal: controller.signal };
    await expect(new OfflineModel().generate(request)).rejects.toMatchObject({ code: 'ABORTED' });
    await expect(new OfflineModel().stream(request)[Symbol.asyncIterator]().next()).rejects.toBeInstanceOf(
      AgentError,
    );
    expect(() => new OfflineModel({ minScore: 2 })).toThrow(/minScore 2 must be a number from 0 to 1/);
  });
});
