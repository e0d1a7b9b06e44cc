import { randomUUID } from 'node:crypto';
import { defineAgent, defineTool } from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import type { RedisConnection } from '@switchboard/redis';
import { z } from 'zod';

/**
 * The test agent of the queue tests: it sends a receipt (write, not idempotent: counted in Redis),
 * then runs a slow lookup, then answers with who did the work. A crash during the lookup is what
 * the drills aim at: the receipt is already out, so a recovered job must not send it again.
 */
export function createShopAgent({
  redis,
  prefix,
  worker,
  lookupMs,
}: {
  redis: RedisConnection;
  prefix: string;
  worker: string;
  lookupMs: number;
}) {
  const sendReceipt = defineTool({
    name: 'send_receipt',
    summary: 'Email the receipt of an order.',
    whenToUse: 'After an order question is answered.',
    input: z.object({ orderId: z.string() }),
    risk: 'write',
    idempotent: false,
    handler: async ({ orderId }) => {
      // Each run adds its own id: a command the client sends again after a failover (its reply lost
      // with the old master) adds the same id, so the set counts runs of the tool, not deliveries.
      await redis.sadd(`${prefix}:receipt-runs:${orderId}`, randomUUID());
      return { orderId, sent: await redis.incr(`${prefix}:receipts:${orderId}`) };
    },
  });
  const slowLookup = defineTool({
    name: 'slow_lookup',
    summary: 'Look an order up in the slow warehouse system.',
    whenToUse: 'Order questions.',
    input: z.object({ orderId: z.string() }),
    risk: 'read',
    timeoutMs: 60_000,
    handler: async ({ orderId }, { signal }) => {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, lookupMs);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          redis.set(`${prefix}:aborted:${orderId}`, worker).finally(resolve);
        });
      });
      return { orderId, status: 'shipped', worker, pid: process.pid };
    },
  });
  const agent = defineAgent({
    name: 'shop',
    instructions: 'Answer order questions.',
    tools: [sendReceipt, slowLookup],
  });
  const model = new ScriptedModel({
    turns: [],
    whenExhausted: (request) => {
      const user = [...request.messages].reverse().find((message) => message.role === 'user');
      const orderId = /A\d{5}/.exec(user?.content ?? '')?.[0] ?? 'A00000';
      const last = request.messages.at(-1);
      if (last?.role === 'user') return { toolCalls: [{ name: 'send_receipt', arguments: { orderId } }] };
      if (last?.role === 'tool' && last.content.includes('"sent"')) {
        return { toolCalls: [{ name: 'slow_lookup', arguments: { orderId } }] };
      }
      return { text: `Order ${orderId} has shipped. [worker=${worker} pid=${process.pid}]` };
    },
  });
  return { agent, model };
}
