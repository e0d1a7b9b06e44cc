import { randomUUID } from 'node:crypto';
import { type Task, TaskState } from '@a2a-js/sdk';
import { type Client, ClientFactory, JsonRpcTransportFactory, type RequestOptions } from '@a2a-js/sdk/client';
import { TaskNotCancelableError, TaskNotFoundError, UnsupportedOperationError } from '@a2a-js/sdk/errors';
import { A2aQueueServer, BULLMQ_BINDING, QueueTransportFactory, queueUrl } from '@switchboard/a2a-bullmq';
import { defineAgent, silentLogger } from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import { PrincipalUser, staticTokenAuthenticator } from '@switchboard/identity';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type A2aHttpServer, a2aHttpInterfaces, createA2aHttpApp, startA2aHttpServer } from '../src/http.ts';
import { buildAgentCard, createAgentHandler, deduplicateMessages } from '../src/index.ts';
import { sendRequest, userMessage } from './support/messages.ts';
import { keysOf, testRedis } from './support/redis.ts';
import { refundTool } from './support/refund-tool.ts';

const redis = testRedis();
const authenticate = staticTokenAuthenticator({
  customers: { 'tok-alice-0123456789': 'alice' },
  operators: { 'tok-operator-0123456789': 'operator' },
  services: { 'tok-supervisor-0123456789': 'supervisor' },
});
const asAlice: RequestOptions = { serviceParameters: { Authorization: 'Bearer tok-alice-0123456789' } };
const asOperator: RequestOptions = { serviceParameters: { Authorization: 'Bearer tok-operator-0123456789' } };
const asSupervisor: RequestOptions = {
  serviceParameters: { Authorization: 'Bearer tok-supervisor-0123456789' },
};
const refunds = { count: 0 };
const address = { queue: 'parity', prefix: `{test:${randomUUID()}}` };
let http: A2aHttpServer;
let queueServer: A2aQueueServer;
let queueFactory: QueueTransportFactory;
const clients: Record<string, Client> = {};

beforeAll(async () => {
  const refund = refundTool({ onRefund: () => refunds.count++ });
  const agent = defineAgent({ name: 'orders', instructions: 'Orders.', tools: [refund] });
  const model = new ScriptedModel({
    turns: [],
    whenExhausted: (request) => {
      const last = request.messages.at(-1);
      if (last?.role === 'user' && last.content.startsWith('refund')) {
        return { toolCalls: [{ name: 'refund_order', arguments: { orderId: last.content.split(' ')[1] } }] };
      }
      return { text: last?.role === 'tool' ? 'Refund done.' : 'OK.' };
    },
  });
  // The card names the server's address, so it listens first (on a port the system picks: a chosen one
  // may be taken on a busy machine) and takes the agent's routes once the card is built.
  const routes = express();
  http = await startA2aHttpServer({ app: routes });
  const card = buildAgentCard({
    agent,
    bearerAuth: true,
    interfaces: [
      ...a2aHttpInterfaces({ baseUrl: http.url }),
      { url: queueUrl(address), protocolBinding: BULLMQ_BINDING },
    ],
  });
  const hosted = createAgentHandler({
    agent,
    model,
    card,
    ownerResolver: () => 'shop',
    logger: silentLogger(),
  });
  routes.use(
    createA2aHttpApp({
      requestHandler: hosted.requestHandler,
      card,
      auth: { authenticate },
      logger: silentLogger(),
    }),
  );
  queueServer = new A2aQueueServer({
    requestHandler: deduplicateMessages({ handler: hosted.requestHandler, redis, prefix: address.prefix }),
    card,
    address,
    redis,
    authenticate: async ({ serviceParameters }) => {
      const principal = await authenticate({ authorization: serviceParameters.authorization });
      return principal && new PrincipalUser(principal);
    },
    logger: silentLogger(),
  });
  await queueServer.start();
  queueFactory = new QueueTransportFactory({ redis, timeoutMs: 10_000 });
  clients.JSONRPC = await new ClientFactory({
    transports: [new JsonRpcTransportFactory()],
    preferredTransports: ['JSONRPC'],
  }).createFromAgentCard(card);
  clients.queue = await new ClientFactory({ transports: [queueFactory] }).createFromAgentCard(card);
});

afterAll(async () => {
  await queueFactory.close();
  await queueServer.close();
  await http.close();
  const keys = await keysOf(redis, `${address.prefix}*`);
  if (keys.length > 0) await Promise.all(keys.map((key) => redis.unlink(key)));
  await redis.quit();
});

const bindings = ['JSONRPC', 'queue'] as const;

function client(binding: (typeof bindings)[number]): Client {
  const found = clients[binding];
  if (!found) throw new Error(`no client for ${binding}`);
  return found;
}

describe.each(bindings)('over %s', (binding) => {
  it('a dangerous action waits in input-required; no decision in a customer’s or operator’s message resumes it, a peer service’s hand-on does, and it runs once', async () => {
    const before = refunds.count;
    const orderId = `A${Math.floor(10_000 + Math.random() * 89_999)}`;
    const waiting = (await client(binding).sendMessage(
      sendRequest(userMessage(`refund ${orderId}`)),
      asAlice,
    )) as Task;
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const data = waiting.status?.message?.parts.find((part) => part.content?.$case === 'data')?.content;
    const [request] =
      data?.$case === 'data'
        ? (data.value as { pendingApprovals: { id: string; argumentsHash: string }[] }).pendingApprovals
        : [];
    const decide = (options: RequestOptions) =>
      client(binding).sendMessage(
        sendRequest(
          userMessage('', {
            taskId: waiting.id,
            contextId: waiting.contextId,
            data: {
              approvalDecision: {
                approvalId: request?.id,
                decision: 'approved',
                argumentsHash: request?.argumentsHash,
                decidedBy: 'ada',
              },
            },
          }),
        ),
        options,
      ) as Promise<Task>;
    for (const sender of [asAlice, asOperator]) {
      const ignored = await decide(sender);
      expect(ignored.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(refunds.count).toBe(before);
    }
    const approved = await decide(asSupervisor);
    expect(approved.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(refunds.count).toBe(before + 1);
  });
});

describe('the same fault, over HTTP and over the queue', () => {
  it.each([
    [
      'GetTask of an unknown task',
      TaskNotFoundError,
      async (c: Client) => c.getTask({ tenant: '', id: 'no-such-task' }, asAlice),
    ],
    [
      'CancelTask of a completed task',
      TaskNotCancelableError,
      async (c: Client) => {
        const done = (await c.sendMessage(sendRequest(userMessage('hello')), asAlice)) as Task;
        return c.cancelTask({ tenant: '', id: done.id, metadata: {} }, asAlice);
      },
    ],
    [
      'a message to a completed task',
      UnsupportedOperationError,
      async (c: Client) => {
        const done = (await c.sendMessage(sendRequest(userMessage('hello')), asAlice)) as Task;
        return c.sendMessage(
          sendRequest(userMessage('more', { taskId: done.id, contextId: done.contextId })),
          asAlice,
        );
      },
    ],
  ])('%s raises the same SDK error on both bindings', async (_fault, expected, act) => {
    const [viaHttp, viaQueue] = await Promise.all(
      [client('JSONRPC'), client('queue')].map((c) =>
        act(c).then(
          () => undefined,
          (error: unknown) => error,
        ),
      ),
    );
    const shape = (error: unknown) => {
      const { name, code, envelopeCode, message } = error as {
        name: string;
        code: unknown;
        envelopeCode: unknown;
        message: string;
      };
      return {
        type: (error as object).constructor.name,
        name,
        code,
        envelopeCode,
        message: message.replace(/[0-9a-f-]{36}/g, '<id>'),
      };
    };
    expect(viaHttp).toBeInstanceOf(Error);
    expect(shape(viaQueue)).toEqual(shape(viaHttp));
    expect(viaQueue).toBeInstanceOf(expected);
  });
});
