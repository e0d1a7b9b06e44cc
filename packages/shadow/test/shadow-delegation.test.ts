import { randomUUID } from 'node:crypto';
import type { AgentCard } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import {
  BULLMQ_BINDING,
  defaultQueueAddress,
  QueueTransportFactory,
  queueUrl,
} from '@switchboard/a2a-bullmq';
import { type Agent, defineAgent, defineTool, type Principal, silentLogger } from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import {
  delegationTarget,
  delegationTools,
  shadowPeerCard,
  shadowQueueAddress,
  signQueuedRequests,
} from '@switchboard/delegate';
import { buildAgentCard, hostAgent } from '@switchboard/host';
import {
  MemoryReplayGuard,
  serviceAssertionAuthenticator,
  serviceSigner,
  trustedKeys,
} from '@switchboard/identity';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ShadowCopyStream,
  type ShadowPair,
  ShadowPairStore,
  shadowAgent,
  startShadowWorker,
} from '../src/index.ts';
import { refundTool, SUPERVISOR_KEY } from './support/fixtures.ts';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(() => redis.quit());

const ada: Principal = { id: 'C001', kind: 'user', roles: [], via: [] };

/** The orders worker; `ran` counts what its tools really did. */
function ordersAgent(ran: { lookups: number; refunds: number }): Agent {
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
    name: 'orders',
    instructions: 'Answer order questions.',
    tools: [getOrder, refundTool({ onRefund: () => ran.refunds++ })],
  });
}

const ordersModel = () =>
  new ScriptedModel({
    turns: [],
    whenExhausted: (request) => {
      const last = request.messages.at(-1);
      if (last?.role === 'user')
        return { toolCalls: [{ name: 'get_order', arguments: { orderId: 'A10086' } }] };
      return { text: 'A10086 has shipped.' };
    },
  });

const SKILLS = [
  { id: 'order-status', name: 'Order status', description: 'Where an order is.', tools: ['get_order'] },
  { id: 'refunds', name: 'Refunds', description: 'Refunds of orders.', tools: ['refund_order'] },
];

/** Hosts the orders worker live on its queue, and its shadow on the `.shadow` queue. */
async function startWorkers(namespace: string) {
  const live = { lookups: 0, refunds: 0 };
  const shadow = { lookups: 0, refunds: 0 };
  const address = defaultQueueAddress('orders', namespace);
  const auth = {
    authenticators: [
      serviceAssertionAuthenticator({
        audience: 'orders',
        trustedKeys: trustedKeys({
          source: { kind: 'inline', keySet: { keys: [SUPERVISOR_KEY.publicKey] } },
        }),
        replay: new MemoryReplayGuard(),
        delegators: ['supervisor'],
        logger: silentLogger(),
      }),
    ],
  };
  const liveHost = await hostAgent({
    agent: ordersAgent(live),
    model: ordersModel(),
    skills: SKILLS,
    queue: { redis, address },
    auth,
    logger: silentLogger(),
  });
  const shadowHost = await hostAgent({
    agent: shadowAgent({ agent: ordersAgent(shadow), record: () => {} }),
    model: ordersModel(),
    skills: SKILLS,
    queue: { redis, address: shadowQueueAddress(address) },
    auth,
    logger: silentLogger(),
  });
  await liveHost.start();
  await shadowHost.start();
  cleanups.push(async () => {
    await liveHost.close({ graceMs: 1_000 });
    await shadowHost.close({ graceMs: 1_000 });
  });
  return { live, shadow, card: liveHost.card };
}

function supervisorOf(card: AgentCard, queue: QueueTransportFactory): Agent {
  const tools = delegationTools({
    peers: [card],
    clientFor: (peer) => new ClientFactory({ transports: [queue] }).createFromAgentCard(peer),
    timeoutMs: 15_000,
    signer: serviceSigner({ key: SUPERVISOR_KEY.privateKey }),
  });
  return defineAgent({ name: 'supervisor', instructions: 'Delegate.', tools });
}

const supervisorModel = () =>
  new ScriptedModel({
    turns: [],
    whenExhausted: (request) => {
      const last = request.messages.at(-1);
      if (last?.role === 'user') {
        return { toolCalls: [{ name: 'orders_order_status', arguments: { request: last.content } }] };
      }
      return { text: `Supervisor: ${last?.role === 'tool' ? last.content : ''}` };
    },
  });

describe('a shadow supervisor', () => {
  it('delegates to the workers’ shadows: the live worker gets nothing', async () => {
    const namespace = `test-shadow-${randomUUID().slice(0, 8)}`;
    const prefix = `{${namespace}:supervisor}`;
    cleanups.push(async () => {
      const keys = await redis.keys(`*${namespace}*`);
      if (keys.length > 0) await redis.del(...keys);
    });
    const workers = await startWorkers(namespace);
    const queue = new QueueTransportFactory({
      redis,
      timeoutMs: 15_000,
      serviceParameters: signQueuedRequests,
    });
    cleanups.push(() => queue.close());
    const shadowCard = shadowPeerCard(workers.card);
    const copies = new ShadowCopyStream({ redis, prefix, agent: 'supervisor' });
    const pairs = new ShadowPairStore({ redis, prefix, retentionSeconds: 600 });
    const worker = startShadowWorker({
      agent: supervisorOf(shadowCard, queue),
      model: supervisorModel(),
      copies,
      pairs,
      redis: redis.duplicate(),
    });
    cleanups.push(() => worker.close());

    const copy = {
      taskId: randomUUID(),
      contextId: randomUUID(),
      agent: 'supervisor',
      text: 'Where is my order A10086?',
      principal: ada,
      acceptedAt: new Date().toISOString(),
    };
    await pairs.open(copy, 'prompt-v2');
    await copies.add(copy);

    let pair: ShadowPair | undefined;
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
      pair = await pairs.get(copy.taskId);
      if (pair?.shadow) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(pair?.shadow?.tools).toEqual([{ tool: 'orders_order_status', risk: 'read', status: 'succeeded' }]);
    expect(pair?.shadow?.answer).toContain('A10086 has shipped.');
    expect(workers.shadow).toEqual({ lookups: 1, refunds: 0 });
    expect(workers.live).toEqual({ lookups: 0, refunds: 0 });
  });

  it('is refused when its delegation tools reach live workers, saying how to fix it', () => {
    const card = buildAgentCard({
      agent: ordersAgent({ lookups: 0, refunds: 0 }),
      skills: SKILLS,
      interfaces: [{ url: queueUrl(defaultQueueAddress('orders')), protocolBinding: BULLMQ_BINDING }],
    });
    const queue = new QueueTransportFactory({ redis, timeoutMs: 1_000 });
    cleanups.push(() => queue.close());
    const live = supervisorOf(card, queue);
    const shadow = supervisorOf(shadowPeerCard(card), queue);
    expect(live.toolset.list().map(delegationTarget)).toEqual(['live', 'live']);
    expect(shadow.toolset.list().map(delegationTarget)).toEqual(['shadow', 'shadow']);
    expect(() =>
      startShadowWorker({
        agent: live,
        model: supervisorModel(),
        copies: new ShadowCopyStream({ redis, prefix: '{unused}', agent: 'supervisor' }),
        pairs: new ShadowPairStore({ redis, prefix: '{unused}' }),
        redis: redis.duplicate({ lazyConnect: true }),
      }),
    ).toThrow(/would delegate to live agents \(orders_order_status, orders_refunds\).*shadowPeerCard/);
  });
});
