import { randomUUID } from 'node:crypto';
import { TaskState } from '@a2a-js/sdk';
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { type ChatRequest, defineAgent, defineTool, silentLogger } from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import { hostAgent, MemoryRunStateStore } from '@switchboard/host';
import { MemoryApprovalBoard } from '@switchboard/host/approvals';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  comparePair,
  ShadowCopyStream,
  type ShadowPair,
  ShadowPairStore,
  ShadowTap,
  startShadowWorker,
} from '../src/index.ts';
import { dataOf, refundTool, send, userMessage } from './support/fixtures.ts';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
const prefix = `{test-shadow-op-${randomUUID().slice(0, 8)}}`;
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

const CUSTOMER = `customer-${randomUUID()}`;
const OPERATOR = `operator-${randomUUID()}`;

/** Refunds the order the user names (the live agent asks; the shadow looks it up first). */
const refundingModel = (lookFirst: boolean) =>
  new ScriptedModel({
    turns: [],
    whenExhausted: (request: ChatRequest) => {
      const last = request.messages.at(-1);
      const refund = { toolCalls: [{ name: 'refund_order', arguments: { orderId: 'A10086' } }] };
      if (last?.role === 'user') {
        return lookFirst ? { toolCalls: [{ name: 'get_order', arguments: { orderId: 'A10086' } }] } : refund;
      }
      if (lookFirst && last?.role === 'tool' && last.content.includes('shipped')) return refund;
      return { text: 'Order A10086 is refunded.' };
    },
  });

async function pairWhere(pairs: ShadowPairStore, taskId: string, done: (pair: ShadowPair) => boolean) {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    const pair = await pairs.get(taskId);
    if (pair && done(pair)) return pair;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`pair ${taskId} never got there: ${JSON.stringify(await pairs.get(taskId))}`);
}

describe('the human baseline of a shadow', () => {
  it('compares the shadow’s proposed refund with what the operator approved', async () => {
    const ran = { refunds: 0 };
    const getOrder = defineTool({
      name: 'get_order',
      summary: 'Look up an order by its id.',
      whenToUse: 'The user asks about an order.',
      input: z.object({ orderId: z.string() }),
      risk: 'read',
      handler: ({ orderId }) => ({ orderId, status: 'shipped' }),
    });
    const agent = defineAgent({
      name: 'shop',
      instructions: 'Help with orders.',
      tools: [getOrder, refundTool({ onRefund: () => ran.refunds++ })],
    });
    const runState = new MemoryRunStateStore();
    const copies = new ShadowCopyStream({ redis, prefix, agent: 'shop' });
    const pairs = new ShadowPairStore({ redis, prefix, retentionSeconds: 600 });
    const tap = new ShadowTap({ agent, candidate: 'look-first', share: 1, copies, pairs, runState });
    const host = await hostAgent({
      agent,
      model: refundingModel(false),
      http: {},
      auth: { tokens: { customers: { [CUSTOMER]: 'C001' }, operators: { [OPERATOR]: 'op-ada' } } },
      approvals: new MemoryApprovalBoard(),
      ownerResolver: () => 'shop',
      stores: { runState },
      shadow: tap,
      logger: silentLogger(),
    });
    await host.start();
    const worker = startShadowWorker({
      agent,
      model: refundingModel(true),
      copies,
      pairs,
      redis: redis.duplicate(),
    });
    try {
      const fetchImpl: typeof fetch = (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set('Authorization', `Bearer ${CUSTOMER}`);
        return fetch(input, { ...init, headers });
      };
      const customer = await new ClientFactory({
        transports: [new JsonRpcTransportFactory({ fetchImpl })],
        cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
      }).createFromUrl(host.url);
      const waiting = await customer.sendMessage(send(userMessage('Please refund order A10086')));
      if (!('status' in waiting)) throw new Error('expected a task');
      expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      const before = await pairWhere(pairs, waiting.id, (pair) => Boolean(pair.live && pair.shadow));
      // The live agent asked for the same refund the shadow proposed: no violation yet.
      expect(comparePair(before)).toMatchObject({ baseline: 'live', sameWrites: true, violations: [] });

      const [pending] = dataOf(waiting.status?.message) as [{ pendingApprovals: { id: string }[] }];
      const response = await fetch(`${host.url}/admin/approvals/${pending.pendingApprovals[0]?.id}/approve`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${OPERATOR}`, 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(202);

      const pair = await pairWhere(pairs, waiting.id, (p) => Boolean(p.operator));
      expect(pair.operator).toMatchObject({
        role: 'operator',
        by: 'op-ada',
        outcome: 'completed',
        tools: [
          { tool: 'refund_order', risk: 'dangerous', status: 'succeeded', arguments: { orderId: 'A10086' } },
        ],
      });
      expect(ran.refunds).toBe(1);
      expect(comparePair(pair)).toMatchObject({
        baseline: 'operator',
        sameWrites: true,
        sameTrajectory: false,
        violations: [],
      });
      // Had the operator denied it, the shadow's refund would be the dangerous action nobody took.
      const denied = {
        ...pair,
        operator: pair.operator && {
          ...pair.operator,
          tools: [
            {
              tool: 'refund_order',
              risk: 'dangerous' as const,
              status: 'failed',
              arguments: { orderId: 'A10086' },
            },
          ],
        },
      };
      expect(comparePair(denied)).toMatchObject({
        sameWrites: false,
        violations: [{ kind: 'dangerous', tool: 'refund_order' }],
      });
    } finally {
      await host.close();
      await worker.close();
      await tap.flush();
    }
  });
});
