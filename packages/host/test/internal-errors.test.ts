import { randomUUID } from 'node:crypto';
import type { AgentCard, Task } from '@a2a-js/sdk';
import { ClientFactory, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';
import { InMemoryTaskStore, type ServerCallContext } from '@a2a-js/sdk/server';
import { propagation } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BULLMQ_BINDING, defaultQueueAddress, QueueTransportFactory } from '@switchboard/a2a-bullmq';
import { defineAgent } from '@switchboard/agent';
import { MemoryLogger, ScriptedModel } from '@switchboard/agent/testing';
import { createRedisConnection } from '@switchboard/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentHost, hostAgent } from '../src/index.ts';

const RAW = 'Maximum call stack size exceeded';
const GENERIC = /^Internal error \(id (err_[0-9a-f]{12})\); tell the operator this id\.$/;

/** A task store with a bug: reading task `boom` overflows the stack. */
class BrokenTaskStore extends InMemoryTaskStore {
  override async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    if (taskId === 'boom') throw new RangeError(RAW);
    return super.load(taskId, context);
  }
}

const redis = createRedisConnection({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
const namespace = `conceal-${randomUUID().slice(0, 8)}`;
const logger = new MemoryLogger();
let host: AgentHost;
let queue: QueueTransportFactory;

beforeAll(async () => {
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  host = await hostAgent({
    agent: defineAgent({ name: 'fragile', instructions: 'Answer.', tools: [] }),
    model: new ScriptedModel({ turns: [], whenExhausted: { text: 'Done.' } }),
    http: {},
    queue: { redis, address: defaultQueueAddress('fragile', namespace) },
    stores: { taskStore: new BrokenTaskStore() },
    logger,
  });
  await host.start();
  queue = new QueueTransportFactory({ redis, namespace, timeoutMs: 10_000 });
});

afterAll(async () => {
  await host?.close({ graceMs: 0 });
  await queue?.close();
  propagation.disable();
  for (const pattern of [`${namespace}:*`, `{${namespace}:*`]) {
    const keys = await redis.keys(pattern);
    if (keys.length > 0) await redis.del(...keys);
  }
  await redis.quit();
});

/** The card with only the interfaces of one binding, so the SDK's client picks it. */
const only = (card: AgentCard, binding: string): AgentCard => ({
  ...card,
  supportedInterfaces: card.supportedInterfaces.filter((entry) => entry.protocolBinding === binding),
});

const bindings = {
  JSONRPC: () => new JsonRpcTransportFactory(),
  'HTTP+JSON': () => new RestTransportFactory(),
  [BULLMQ_BINDING]: () => queue,
};

/** The message the call failed with. */
async function failure(call: Promise<unknown>): Promise<string> {
  const error = await call.then(
    () => undefined,
    (rejected: unknown) => rejected,
  );
  expect(error).toBeInstanceOf(Error);
  return (error as Error).message;
}

describe('an unexpected error', () => {
  it.each(Object.keys(bindings))(
    'reaches a caller over %s as a generic message with an error id, logged in full under that id',
    async (binding) => {
      const client = await new ClientFactory({
        transports: [bindings[binding as keyof typeof bindings]()],
      }).createFromAgentCard(only(host.card, binding));
      const message = await failure(client.getTask({ tenant: '', id: 'boom' }));
      expect(message).toMatch(GENERIC);
      expect(message).not.toContain(RAW);
      const errorId = GENERIC.exec(message)?.[1];
      const logged = logger.entries.find((entry) => entry.fields.errorId === errorId);
      expect(logged).toMatchObject({ level: 'error', fields: { method: 'getTask' } });
      expect((logged?.fields.err as Error | undefined)?.message).toBe(RAW);

      // An error raised on purpose keeps its message.
      expect(await failure(client.getTask({ tenant: '', id: 'no-such-task' }))).toMatch(/not found/i);
    },
  );

  it('is logged with the caller’s trace id, and its raw text is in no response body', async () => {
    const traceId = randomUUID().replaceAll('-', '');
    const response = await fetch(`${host.url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'A2A-Version': '1.0',
        traceparent: `00-${traceId}-00f067aa0ba902b7-01`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'boom' } }),
    });
    const text = await response.text();
    expect(text).not.toContain(RAW);
    const errorId = /err_[0-9a-f]{12}/.exec(text)?.[0];
    expect(errorId).toBeDefined();
    expect(logger.entries.find((entry) => entry.fields.errorId === errorId)?.fields.traceId).toBe(traceId);
  });
});
