import { randomUUID } from 'node:crypto';
import { Role, TaskState } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { defineAgent, defineTool } from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  A2aQueueServer,
  BULLMQ_BINDING,
  buildAgentCard,
  QueueTransportFactory,
  queueUrl,
  SwitchboardAgentExecutor,
  textPart,
} from '../src/index.js';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
afterAll(() => redis.quit());

describe('queue smoke', () => {
  it('sends a message over the queue with the SDK client', async () => {
    const address = { queue: 'smoke', prefix: `{test:${randomUUID()}}` };
    const getOrder = defineTool({
      name: 'get_order',
      summary: 'Look up an order.',
      whenToUse: 'Order questions.',
      input: z.object({ orderId: z.string() }),
      risk: 'read',
      handler: ({ orderId }) => ({ orderId, status: 'shipped' }),
    });
    const agent = defineAgent({ name: 'orders', instructions: 'Orders.', tools: [getOrder] });
    const model = new ScriptedModel({
      turns: [],
      whenExhausted: (request) =>
        request.messages.at(-1)?.role === 'user'
          ? { toolCalls: [{ name: 'get_order', arguments: { orderId: 'A10086' } }] }
          : { text: 'It has shipped.' },
    });
    const card = buildAgentCard({
      agent,
      interfaces: [{ url: queueUrl(address), protocolBinding: BULLMQ_BINDING }],
    });
    const handler = new DefaultRequestHandler(
      card,
      new InMemoryTaskStore(),
      new SwitchboardAgentExecutor({ agent, model }),
    );
    const server = new A2aQueueServer({ requestHandler: handler, card, address, redis });
    await server.start();
    const factory = new QueueTransportFactory({ redis, timeoutMs: 10_000 });
    try {
      const client = await new ClientFactory({ transports: [factory] }).createFromAgentCard(card);
      const result = await client.sendMessage({
        tenant: '',
        message: {
          messageId: randomUUID(),
          role: Role.ROLE_USER,
          parts: [textPart('Where is A10086?')],
          contextId: '',
          taskId: '',
          metadata: {},
          extensions: [],
          referenceTaskIds: [],
        },
        configuration: undefined,
        metadata: {},
      });
      expect('status' in result && result.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    } finally {
      await factory.close();
      await server.close();
    }
  });
});
