import { defineTool, Toolset, toModelSchema } from '@switchboard/agent';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fillArguments } from '../src/fill-arguments.ts';
import { OfflineModel } from '../src/index.ts';

const now = new Date('2026-11-30T10:00:00Z');
const fill = (schema: z.ZodType, text: string) => fillArguments(toModelSchema(schema), { text, now });

const askOrders = defineTool({
  name: 'orders_order_status',
  summary: 'Ask the orders agent where an order is and when it will arrive.',
  whenToUse: 'The customer asks about the status or delivery of an order.',
  input: z.object({ request: z.string().trim().min(1).describe('The customer request, in full') }),
  risk: 'read',
  handler: () => null,
});

describe('the offline planner and a free-text request argument', () => {
  it('hands on the whole request as a required `request` argument', async () => {
    const request = 'Where is my order A10086 and when will it arrive?';
    const response = await new OfflineModel().generate({
      messages: [{ role: 'user', content: request }],
      tools: new Toolset([askOrders]).declarations(),
    });
    expect(response.message.tool_calls?.map((call) => [call.function.name, call.function.arguments])).toEqual(
      [['orders_order_status', JSON.stringify({ request })]],
    );
  });

  it('always hands on the whole request, and fills only a required string named `request`', () => {
    const Request = z.object({ request: z.string() });
    expect(fill(Request, '  Is the blue kettle in stock?  ').values).toEqual({
      request: 'Is the blue kettle in stock?',
    });
    expect(fill(Request, 'Forward "where is A10086" to the orders desk').values).toEqual({
      request: 'Forward "where is A10086" to the orders desk',
    });
    expect(fill(z.object({ request: z.string().optional() }), 'Is it in stock?').values).toEqual({});
    const message = fill(z.object({ message: z.string() }), 'Is it in stock?');
    expect(message.values).toEqual({});
    expect(message.missing.map((property) => property.name)).toEqual(['message']);
    expect(
      fill(z.object({ request: z.string().max(5) }), 'Is the blue kettle in stock?').missing,
    ).toHaveLength(1);
  });
});

describe('the offline planner and a delegate’s answer', () => {
  it('shows the answer another agent wrote in full, not as clipped fields', async () => {
    const long = `Order A10086 has shipped with DHL. ${'It is on its way. '.repeat(20)}Estimated delivery: 2026-12-01.`;
    const response = await new OfflineModel().generate({
      messages: [
        { role: 'user', content: 'Where is my order A10086?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: {
                name: 'orders_order_status',
                arguments: JSON.stringify({ request: 'Where is my order A10086?' }),
              },
            },
          ],
        },
        {
          role: 'tool',
          tool_call_id: 'call_1',
          content: JSON.stringify({ ok: true, data: { agent: 'orders', status: 'completed', answer: long } }),
        },
      ],
      tools: new Toolset([askOrders]).declarations(),
    });
    expect(response.message.content).toBe(`The orders agent answered:\n  ${long}`);
  });
});
