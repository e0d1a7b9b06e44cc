/**
 * Prompt tokens per turn of a 20-turn customer-support conversation with tool calls, sending the full
 * history (the baseline) versus the history trimmed by turns to a token budget. Both runs go through
 * `runAgent` with the same scripted model; tokens are counted on what was actually sent.
 *
 *   pnpm bench
 */
import {
  assertValidHistory,
  type ChatMessage,
  type ChatRequest,
  defineAgent,
  defineTool,
  estimatePromptTokens,
  runAgent,
} from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import { z } from 'zod';

const TURNS = 20;
/** Short-term memory: the last 5 turns, and never more than 60% of a 4k-token window. */
const MAX_TURNS = 5;
const TOKEN_BUDGET = Math.floor(4_096 * 0.6);
const TARGET_SAVING = 0.4;

const orderId = (turn: number) => `A${String(10_000 + turn * 7).padStart(5, '0')}`;

const getOrder = defineTool({
  name: 'get_order',
  summary: 'Look up an order by its id: status, items, carrier and dates.',
  whenToUse: 'The user asks about an order they placed.',
  input: z.object({ orderId: z.string().regex(/^A\d{5}$/) }),
  risk: 'read',
  handler: ({ orderId: id }) => ({
    orderId: id,
    status: 'shipped',
    carrier: 'DHL',
    placedAt: '2026-11-20',
    items: [
      { sku: 'SKU-1042', name: 'Stainless steel kettle, 1.7 l', quantity: 1, price: 39.9 },
      { sku: 'SKU-2210', name: 'Descaling tablets, pack of 12', quantity: 2, price: 9.95 },
    ],
    shippingAddress: { street: 'Hauptstrasse 12', city: 'Berlin', postcode: '10115', country: 'DE' },
  }),
});

const estimateDelivery = defineTool({
  name: 'estimate_delivery',
  summary: 'Estimate when an order will arrive, from its carrier and destination.',
  whenToUse: 'The user asks when an order will arrive.',
  input: z.object({ orderId: z.string().regex(/^A\d{5}$/) }),
  risk: 'read',
  handler: ({ orderId: id }) => ({
    orderId: id,
    earliest: '2026-12-02',
    latest: '2026-12-04',
    confidence: 'high',
  }),
});

const agent = defineAgent({
  name: 'orders',
  instructions:
    'You are the orders agent of an online shop. Answer questions about orders using your tools. ' +
    'Never guess order data; if an order id is missing, ask for it.',
  tools: [getOrder, estimateDelivery],
});

/** Every turn: one or two tool calls (every third turn two in parallel), then an answer. */
function conversationModel(): ScriptedModel {
  return new ScriptedModel({
    turns: [],
    whenExhausted: (request: ChatRequest) => {
      const last = request.messages.at(-1);
      const user = [...request.messages].reverse().find((message) => message.role === 'user');
      const turn = Number(/#(\d+)/.exec(user?.content ?? '')?.[1] ?? 0);
      if (last?.role === 'user') {
        const calls = [{ name: 'get_order', arguments: { orderId: orderId(turn) } }];
        if (turn % 3 === 0) calls.push({ name: 'estimate_delivery', arguments: { orderId: orderId(turn) } });
        return { toolCalls: calls };
      }
      return {
        text: `Order ${orderId(turn)} has shipped with DHL and should arrive between 2 and 4 December. Anything else?`,
      };
    },
  });
}

async function converse(trimmed: boolean) {
  const model = conversationModel();
  const perTurn: number[] = [];
  let history: ChatMessage[] = [];
  let broken = 0;
  for (let turn = 1; turn <= TURNS; turn++) {
    const before = model.requests.length;
    const result = await runAgent({
      agent,
      model,
      history,
      input: `Question #${turn}: where is my order ${orderId(turn)} and when will it arrive?`,
      ...(trimmed ? { context: { maxTurns: MAX_TURNS, tokenBudget: TOKEN_BUDGET } } : {}),
    });
    history = result.messages;
    const sent = model.requests.slice(before);
    for (const request of sent) {
      try {
        assertValidHistory(request.messages);
      } catch {
        broken++;
      }
    }
    perTurn.push(
      sent.reduce((sum, request) => sum + estimatePromptTokens(request.messages, request.tools), 0),
    );
  }
  return { perTurn, broken, requests: model.requests.length };
}

const full = await converse(false);
const trim = await converse(true);

const pad = (value: string | number, width: number) => String(value).padStart(width);
console.log(
  `Prompt tokens per turn (both model calls of the turn): ${TURNS} turns with tool calls; trimmed = last ${MAX_TURNS} turns, budget ${TOKEN_BUDGET} tokens/request\n`,
);
console.log(`${pad('turn', 4)}  ${pad('full history', 12)}  ${pad('trimmed', 8)}  ${pad('saved', 6)}`);
for (let i = 0; i < TURNS; i++) {
  const f = full.perTurn[i] ?? 0;
  const t = trim.perTurn[i] ?? 0;
  console.log(
    `${pad(i + 1, 4)}  ${pad(f, 12)}  ${pad(t, 8)}  ${pad(`${Math.round((1 - t / f) * 100)}%`, 6)}`,
  );
}
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const lastSaving = 1 - (trim.perTurn.at(-1) ?? 0) / (full.perTurn.at(-1) ?? 1);
const totalSaving = 1 - sum(trim.perTurn) / sum(full.perTurn);
console.log(
  `${pad('all', 4)}  ${pad(sum(full.perTurn), 12)}  ${pad(sum(trim.perTurn), 8)}  ${pad(`${Math.round(totalSaving * 100)}%`, 6)}`,
);
console.log(`\nmodel requests: ${full.requests} (full), ${trim.requests} (trimmed)`);
console.log(`requests with a broken tool-call group: ${full.broken} (full), ${trim.broken} (trimmed)`);
const met = lastSaving >= TARGET_SAVING && trim.broken === 0;
console.log(
  `target: save >= ${TARGET_SAVING * 100}% of prompt tokens at turn ${TURNS} with no broken group: ` +
    `${Math.round(lastSaving * 100)}% saved, ${trim.broken} broken -> ${met ? 'met' : 'MISSED'}`,
);
process.exitCode = met ? 0 : 1;
