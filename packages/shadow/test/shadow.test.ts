import { randomUUID } from 'node:crypto';
import { ClientFactory, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { type ChatRequest, defineAgent, defineTool, silentLogger } from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import { hostAgent, MemoryRunStateStore } from '@switchboard/host';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  comparePair,
  inShadowShare,
  ShadowCopyStream,
  type ShadowPair,
  ShadowPairStore,
  ShadowTap,
  shadowReport,
  startShadowWorker,
} from '../src/index.ts';
import { partsText, refundTool, send, userMessage } from './support/fixtures.ts';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
afterAll(() => redis.quit());

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The shop as the tests see it: how often each tool really ran. */
function shopAgent(ran: { lookups: number; refunds: number }) {
  const getOrder = defineTool({
    name: 'get_order',
    summary: 'Look up an order by its id.',
    whenToUse: 'The user asks about an order.',
    input: z.object({ orderId: z.string().regex(/^A\d{5}$/) }),
    risk: 'read',
    handler: ({ orderId }) => {
      ran.lookups += 1;
      return { orderId, status: 'shipped' };
    },
  });
  return defineAgent({
    name: 'shop',
    instructions: 'Help with orders.',
    tools: [getOrder, refundTool({ onRefund: () => ran.refunds++ })],
  });
}

/** Looks the order up, then answers; `alsoRefund` makes the candidate refund it too. */
function orderModel({ alsoRefund, answer }: { alsoRefund: boolean; answer: string }) {
  return new ScriptedModel({
    turns: [],
    whenExhausted: (request: ChatRequest) => {
      const last = request.messages.at(-1);
      if (last?.role === 'user')
        return { toolCalls: [{ name: 'get_order', arguments: { orderId: 'A10086' } }] };
      if (alsoRefund && last?.role === 'tool' && last.content.includes('shipped')) {
        return { toolCalls: [{ name: 'refund_order', arguments: { orderId: 'A10086' } }] };
      }
      return { text: answer };
    },
  });
}

async function startShop({
  share,
  shadowRedis,
  model = orderModel({ alsoRefund: false, answer: 'Order A10086 has shipped.' }),
}: {
  share: number;
  shadowRedis?: Redis;
  model?: ScriptedModel;
}) {
  const prefix = `{test-shadow-${randomUUID().slice(0, 8)}}`;
  const ran = { lookups: 0, refunds: 0 };
  const agent = shopAgent(ran);
  const runState = new MemoryRunStateStore();
  const store = shadowRedis ?? redis;
  const copies = new ShadowCopyStream({ redis: store, prefix, agent: agent.name });
  const pairs = new ShadowPairStore({ redis: store, prefix, retentionSeconds: 600 });
  const tap = new ShadowTap({ agent, candidate: 'refunds-v2', share, copies, pairs, runState });
  const host = await hostAgent({
    agent,
    model,
    http: {},
    stores: { runState },
    shadow: tap,
    logger: silentLogger(),
  });
  await host.start();
  cleanups.push(async () => {
    await host.close();
    await tap.flush();
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
  });
  const client = await new ClientFactory({ transports: [new JsonRpcTransportFactory()] }).createFromUrl(
    host.url,
  );
  const ask = async (text: string, contextId?: string) => {
    const result = await client.sendMessage(send(userMessage(text, contextId ? { contextId } : {})));
    if (!('status' in result)) throw new Error('expected a task');
    return result;
  };
  return { prefix, ran, agent, copies, pairs, tap, ask };
}

async function pairWhenComplete(pairs: ShadowPairStore, taskId: string): Promise<ShadowPair> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const pair = await pairs.get(taskId);
    if (pair?.live && pair.shadow) return pair;
    if (Date.now() > deadline) throw new Error(`pair ${taskId} incomplete: ${JSON.stringify(pair)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a shadow beside a live agent', () => {
  it('answers the user from the live run only; the shadow reads for real, records its refund, refunds nothing', async () => {
    const shop = await startShop({ share: 1 });
    const worker = startShadowWorker({
      agent: shop.agent,
      model: orderModel({ alsoRefund: true, answer: 'Order A10086 has shipped; I refunded it.' }),
      copies: shop.copies,
      pairs: shop.pairs,
      redis: redis.duplicate(),
    });
    cleanups.push(() => worker.close());

    const task = await shop.ask('Where is my order A10086?');
    expect(partsText(task.artifacts[0]?.parts ?? [])).toBe('Order A10086 has shipped.');

    const pair = await pairWhenComplete(shop.pairs, task.id);
    expect(pair).toMatchObject({ agent: 'shop', candidate: 'refunds-v2', text: 'Where is my order A10086?' });
    expect(pair.live?.tools).toEqual([{ tool: 'get_order', risk: 'read', status: 'succeeded' }]);
    expect(pair.live?.answer).toBe('Order A10086 has shipped.');
    expect(pair.shadow?.tools).toEqual([
      { tool: 'get_order', risk: 'read', status: 'succeeded' },
      { tool: 'refund_order', risk: 'dangerous', status: 'recorded', arguments: { orderId: 'A10086' } },
    ]);
    expect(pair.shadow?.answer).toBe('Order A10086 has shipped; I refunded it.');
    expect(pair.shadow?.steps).toBe(3);
    // The shadow's read ran for real (twice in all); its refund did not run at all.
    expect(shop.ran).toEqual({ lookups: 2, refunds: 0 });

    expect(comparePair(pair)).toMatchObject({
      baseline: 'live',
      sameTrajectory: false,
      sameWrites: false,
      sameAnswer: false,
      violations: [{ kind: 'dangerous', tool: 'refund_order' }],
      disagrees: true,
    });
  });

  it('agrees with a shadow that does what the live agent did, and a report counts it', async () => {
    const shop = await startShop({ share: 1 });
    const worker = startShadowWorker({
      agent: shop.agent,
      model: orderModel({ alsoRefund: false, answer: 'Order A10086 has shipped.' }),
      copies: shop.copies,
      pairs: shop.pairs,
      redis: redis.duplicate(),
    });
    cleanups.push(() => worker.close());
    const task = await shop.ask('Where is my order A10086?');
    const pair = await pairWhenComplete(shop.pairs, task.id);
    expect(comparePair(pair)).toMatchObject({
      sameTrajectory: true,
      sameWrites: true,
      sameAnswer: true,
      disagrees: false,
    });
    expect(shadowReport(await shop.pairs.list())).toMatchObject({
      pairs: 1,
      compared: 1,
      agreement: { trajectory: 1, writes: 1, answers: 1 },
      disagreements: [],
    });
  });

  it('runs a follow-up with the conversation’s earlier turns, as the live agent did', async () => {
    const counting = () =>
      new ScriptedModel({
        turns: [],
        whenExhausted: (request: ChatRequest) => ({
          text: `I have seen ${request.messages.filter((m) => m.role === 'user').length} user message(s).`,
        }),
      });
    const shop = await startShop({ share: 1, model: counting() });
    const worker = startShadowWorker({
      agent: shop.agent,
      model: counting(),
      copies: shop.copies,
      pairs: shop.pairs,
      redis: redis.duplicate(),
    });
    cleanups.push(() => worker.close());
    const first = await shop.ask('Hello');
    await pairWhenComplete(shop.pairs, first.id);
    const second = await shop.ask('And again', first.contextId);
    const pair = await pairWhenComplete(shop.pairs, second.id);
    expect(pair.live?.answer).toBe('I have seen 2 user message(s).');
    expect(pair.shadow?.answer).toBe('I have seen 2 user message(s).');
  });

  it('yields to live work: while this process is busy it runs no copy, and runs it once the load is gone', async () => {
    const shop = await startShop({ share: 1 });
    const worker = startShadowWorker({
      agent: shop.agent,
      model: orderModel({ alsoRefund: false, answer: 'Order A10086 has shipped.' }),
      copies: shop.copies,
      pairs: shop.pairs,
      redis: redis.duplicate(),
      yieldAbove: 0.5,
    });
    cleanups.push(() => worker.close());
    // Keep this process's event loop nearly always busy for 2.5 s, as live requests would, and ask
    // while it is.
    let loaded = true;
    const load = (async () => {
      const until = Date.now() + 2_500;
      while (Date.now() < until) {
        const sliceEnd = Date.now() + 45;
        while (Date.now() < sliceEnd) {
          // a slice of CPU work between two turns of the loop
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
      loaded = false;
    })();
    await new Promise((resolve) => setTimeout(resolve, 400));
    const task = await shop.ask('Where is my order A10086?');
    let shadowDuringLoad: ShadowPair['shadow'];
    while (loaded) {
      shadowDuringLoad ??= (await shop.pairs.get(task.id))?.shadow;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await load;
    expect(shadowDuringLoad).toBeUndefined();
    expect(worker.yielded).toBeGreaterThan(0);
    const pair = await pairWhenComplete(shop.pairs, task.id);
    expect(pair.shadow?.answer).toBe('Order A10086 has shipped.');
    expect(worker.handled).toBe(1);
  });

  it('copies no request outside the share', async () => {
    const shop = await startShop({ share: 0 });
    await shop.ask('Where is my order A10086?');
    await shop.tap.flush();
    expect(await shop.pairs.list()).toEqual([]);
    expect(shop.ran.lookups).toBe(1);
  });

  it('answers live requests as usual while the shadow’s Redis is unreachable', async () => {
    const down = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    down.on('error', () => {});
    cleanups.push(async () => down.disconnect());
    const shop = await startShop({ share: 1, shadowRedis: down });
    const task = await shop.ask('Where is my order A10086?');
    expect(partsText(task.artifacts[0]?.parts ?? [])).toBe('Order A10086 has shipped.');
    await shop.tap.flush();
    expect(shop.tap.counts.failed).toBeGreaterThanOrEqual(1);
  });

  it('copies the same share of task ids on every replica', () => {
    const ids = Array.from({ length: 2_000 }, (_, i) => `task-${i}`);
    const picked = ids.filter((id) => inShadowShare(id, 0.25));
    expect(picked.length / ids.length).toBeGreaterThan(0.2);
    expect(picked.length / ids.length).toBeLessThan(0.3);
    expect(ids.filter((id) => inShadowShare(id, 0.25))).toEqual(picked);
  });
});
