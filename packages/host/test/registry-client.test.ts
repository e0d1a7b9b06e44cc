import { randomUUID } from 'node:crypto';
import { type Task, TaskState } from '@a2a-js/sdk';
import { A2aQueueServer, BULLMQ_BINDING, QueueTransportFactory, queueUrl } from '@switchboard/a2a-bullmq';
import { defineAgent, silentLogger } from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import { AgentRegistry, clientForAgent } from '@switchboard/delegate';
import express from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import { a2aHttpInterfaces, createA2aHttpApp, startA2aHttpServer } from '../src/http.ts';
import { buildAgentCard, createAgentHandler, deduplicateMessages } from '../src/index.ts';
import { sendRequest, userMessage } from './support/messages.ts';
import { keysOf, testRedis } from './support/redis.ts';

const redis = testRedis();
afterAll(() => redis.quit());

describe('clients from the registry', () => {
  it('reach a live agent over its queue inside, over HTTP outside, and name the live agents otherwise', async () => {
    const namespace = `{reg:${randomUUID()}}`;
    const address = { queue: 'echo', prefix: `{test:${randomUUID()}}` };
    const agent = defineAgent({ name: 'echo', instructions: 'Echo.' });
    const model = new ScriptedModel({ turns: [], whenExhausted: { text: 'pong' } });
    // The HTTP server must exist before the card can name its URL.
    let app: ReturnType<typeof createA2aHttpApp> | undefined;
    const outer = express();
    outer.use((req, res, next) => (app ? app(req, res, next) : next()));
    const http = await startA2aHttpServer({ app: outer });
    const card = buildAgentCard({
      agent,
      interfaces: [
        { url: queueUrl(address), protocolBinding: BULLMQ_BINDING },
        ...a2aHttpInterfaces({ baseUrl: http.url }),
      ],
    });
    const hosted = createAgentHandler({ agent, model, card, logger: silentLogger() });
    app = createA2aHttpApp({ requestHandler: hosted.requestHandler, card, logger: silentLogger() });
    const queueServer = new A2aQueueServer({
      requestHandler: deduplicateMessages({ handler: hosted.requestHandler, redis, prefix: address.prefix }),
      card,
      address,
      redis,
      logger: silentLogger(),
    });
    await queueServer.start();
    const registry = new AgentRegistry({ redis, namespace, logger: silentLogger() });
    const registration = await registry.register({ card, instanceId: 'echo-1' });
    const queue = new QueueTransportFactory({ redis, timeoutMs: 10_000 });
    try {
      const inside = await clientForAgent({ registry, name: 'echo', queue });
      expect(inside.transport.protocolName).toBe(BULLMQ_BINDING);
      const viaQueue = (await inside.sendMessage(sendRequest(userMessage('ping')))) as Task;
      expect(viaQueue.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

      const outside = await clientForAgent({ registry, name: 'echo', prefer: 'http' });
      expect(outside.transport.protocolName).toBe('JSONRPC');
      const viaHttp = (await outside.sendMessage(sendRequest(userMessage('ping')))) as Task;
      expect(viaHttp.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

      await expect(clientForAgent({ registry, name: 'billing', queue })).rejects.toThrow(
        'No live agent named "billing" in the registry (live: echo). Is its service running?',
      );
    } finally {
      await queue.close();
      await registration.stop();
      await queueServer.close();
      await http.close();
      const keys = await keysOf(redis, `${address.prefix}*`);
      if (keys.length > 0) await Promise.all(keys.map((key) => redis.unlink(key)));
    }
  });
});
