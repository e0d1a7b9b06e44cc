import type { Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { defineAgent, defineTool } from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import { readTaskCost, sendMessageRequest, userMessage } from '@switchboard/protocol';
import { z } from 'zod';

/** Planted in a tool failure of the worker: it must appear in no span. */
export const CANARY = 'sk-canary-5f4dcc3b5aa765d61d8327deb882cf99';

/** The worker: looks orders up, and its parcel tracker fails with a leaky error. */
export function createOrdersAgent() {
  const getOrder = defineTool({
    name: 'get_order',
    summary: 'Look up an order by id.',
    whenToUse: 'Order questions.',
    input: z.object({ orderId: z.string() }),
    risk: 'read',
    handler: ({ orderId }) => ({ orderId, status: 'shipped', carrier: 'DHL' }),
  });
  const trackParcel = defineTool({
    name: 'track_parcel',
    summary: 'Track the parcel of an order with the carrier.',
    whenToUse: 'Where is my parcel.',
    input: z.object({ orderId: z.string() }),
    risk: 'read',
    fallbackMessage: 'Parcel tracking is unavailable right now.',
    handler: () => {
      throw new Error(`carrier API refused key ${CANARY} at tracking-db.internal:5432`);
    },
  });
  const agent = defineAgent({
    name: 'orders',
    description: 'Order lookups.',
    instructions: 'Answer order questions.',
    tools: [getOrder, trackParcel],
  });
  const model = new ScriptedModel({
    modelId: 'scripted-orders',
    turns: [],
    whenExhausted: (request) => {
      const last = request.messages.at(-1);
      if (last?.role === 'user') {
        return {
          toolCalls: [
            { name: 'get_order', arguments: { orderId: 'A10086' } },
            { name: 'track_parcel', arguments: { orderId: 'A10086' } },
          ],
        };
      }
      return { text: 'Order A10086 has shipped with DHL; tracking is unavailable right now.' };
    },
  });
  return { agent, model };
}

/** The supervisor: delegates every question to the orders agent through `client`. */
export function createSupervisorAgent(orders: () => Promise<Client>) {
  const askOrders = defineTool({
    name: 'ask_orders',
    summary: 'Ask the orders agent a question about an order.',
    whenToUse: 'Any question about an order.',
    input: z.object({ question: z.string() }),
    risk: 'read',
    timeoutMs: 20_000,
    handler: async ({ question }, { signal, reportCost }) => {
      const client = await orders();
      const task = (await client.sendMessage(
        sendMessageRequest({ message: userMessage({ text: question }) }),
        { signal },
      )) as Task;
      // A hand-written delegation adds what the worker's task says it cost, as delegationTools does.
      const cost = readTaskCost(task.metadata);
      if (cost.kind === 'cost') reportCost?.(cost.cost);
      const part = task.artifacts[0]?.parts[0]?.content;
      return { answer: part?.$case === 'text' ? part.value : '', state: task.status?.state };
    },
  });
  const agent = defineAgent({
    name: 'supervisor',
    description: 'Routes questions.',
    instructions: 'Delegate.',
    tools: [askOrders],
  });
  const model = new ScriptedModel({
    modelId: 'scripted-supervisor',
    turns: [],
    whenExhausted: (request) => {
      const last = request.messages.at(-1);
      if (last?.role === 'user')
        return { toolCalls: [{ name: 'ask_orders', arguments: { question: last.content } }] };
      return { text: 'The orders team says: your order has shipped.' };
    },
  });
  return { agent, model };
}
