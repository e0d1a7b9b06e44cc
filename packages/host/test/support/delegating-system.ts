import { randomUUID } from 'node:crypto';
import { type AgentCard, TaskState } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { defaultQueueAddress, QueueTransportFactory } from '@switchboard/a2a-bullmq';
import {
  defineAgent,
  defineTool,
  MemoryAuditSink,
  MemoryIntentStore,
  silentLogger,
} from '@switchboard/agent';
import { ScriptedModel } from '@switchboard/agent/testing';
import { AgentRegistry, delegationTools, signQueuedRequests } from '@switchboard/delegate';
import {
  generateServiceKey,
  MemoryReplayGuard,
  serviceAssertionAuthenticator,
  serviceSigner,
  trustedKeys,
} from '@switchboard/identity';
import type { RedisConnection } from '@switchboard/redis';
import { z } from 'zod';
import { actingForOwner, MemoryApprovalBoard } from '../../src/approvals.ts';
import { hostAgent } from '../../src/index.ts';
import { refundTool } from './refund-tool.ts';

/** The supervisor's signing key; the worker trusts its public half. */
export const SUPERVISOR_KEY = generateServiceKey({ service: 'supervisor', label: 'test' });
export const CUSTOMER_TOKEN = 'cust-token-0123456789abcdef';
export const OPERATOR_TOKEN = 'ops-token-0123456789abcdef';

/** What the worker did, for assertions. */
export interface WorkerRecord {
  refunds: number;
  audit: MemoryAuditSink;
  waitAborted: boolean;
}

const lastUserText = (messages: readonly { role: string; content?: unknown }[]) =>
  String([...messages].reverse().find((message) => message.role === 'user')?.content ?? '');

/** The orders worker: looks orders up, refunds (dangerous), or waits on a slow warehouse. */
function ordersWorker(record: WorkerRecord) {
  const OrderId = z.object({ orderId: z.string().regex(/^A\d{5}$/) });
  const tools = [
    defineTool({
      name: 'get_order',
      summary: 'Look up an order.',
      whenToUse: 'Order questions.',
      input: OrderId,
      risk: 'read',
      handler: ({ orderId }) => ({ orderId, status: 'shipped' }),
    }),
    refundTool({ onRefund: () => record.refunds++ }),
    defineTool({
      name: 'wait_for_warehouse',
      summary: 'Wait for the warehouse.',
      whenToUse: 'Warehouse questions.',
      input: OrderId,
      risk: 'read',
      timeoutMs: 30_000,
      handler: (_input, { signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            record.waitAborted = true;
            reject(new Error('aborted'));
          });
        }),
    }),
  ];
  const agent = defineAgent({ name: 'orders', instructions: 'Orders desk.', tools });
  const model = new ScriptedModel({
    turns: [],
    whenExhausted: (request) => {
      const last = request.messages.at(-1);
      const text = lastUserText(request.messages);
      const orderId = /A\d{5}/.exec(text)?.[0] ?? 'A00000';
      if (last?.role === 'user') {
        const tool = /refund/i.test(text)
          ? 'refund_order'
          : /warehouse/i.test(text)
            ? 'wait_for_warehouse'
            : 'get_order';
        return { toolCalls: [{ name: tool, arguments: { orderId } }] };
      }
      return { text: `orders says: ${last?.role === 'tool' ? last.content : ''}` };
    },
  });
  return { agent, model };
}

/** A running supervisor (HTTP, with the admin API) delegating to an orders worker over a real Redis queue. */
export interface DelegatingSystem {
  url: string;
  worker: WorkerRecord;
  customer(): Promise<Client>;
  admin(path: string, init?: RequestInit): Promise<Response>;
  waitForState(client: Client, taskId: string, state: TaskState): Promise<import('@a2a-js/sdk').Task>;
  /** Starts the worker's consumer (and registers it, with `replicaWaitMs`) when it was not up. */
  startWorker(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the two agents; `workerUp: false` publishes the worker's card but runs no consumer. With
 * `replicaWaitMs`, the supervisor counts the worker's live replicas in the registry, where the
 * worker registers while it is up.
 */
export async function startDelegatingSystem({
  redis,
  namespace,
  workerUp = true,
  hopTimeoutMs = 10_000,
  replicaWaitMs,
}: {
  redis: RedisConnection;
  namespace: string;
  workerUp?: boolean;
  hopTimeoutMs?: number;
  replicaWaitMs?: number;
}): Promise<DelegatingSystem> {
  const worker: WorkerRecord = { refunds: 0, audit: new MemoryAuditSink(), waitAborted: false };
  const address = defaultQueueAddress('orders', namespace);
  const orders = ordersWorker(worker);
  const registry = new AgentRegistry({ redis, namespace, logger: silentLogger() });
  const workerHost = await hostAgent({
    ...orders,
    skills: [
      {
        id: 'order-status',
        name: 'Order status',
        description: 'Where an order is.',
        tools: ['get_order', 'wait_for_warehouse'],
      },
      { id: 'refunds', name: 'Refunds', description: 'Refunds of orders.', tools: ['refund_order'] },
    ],
    queue: { redis, address },
    auth: {
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
    },
    audit: worker.audit,
    stores: { intents: new MemoryIntentStore() },
    ...(replicaWaitMs ? { registry: { registry, instanceId: `orders-${randomUUID().slice(0, 8)}` } } : {}),
    logger: silentLogger(),
  });
  const workerCard = workerHost.card;
  let workerStarted = false;
  const startWorker = async () => {
    workerStarted = true;
    await workerHost.start();
  };
  if (workerUp) await startWorker();

  const queue = new QueueTransportFactory({
    redis,
    timeoutMs: hopTimeoutMs,
    serviceParameters: signQueuedRequests,
  });
  const tools = delegationTools({
    peers: [workerCard],
    clientFor: (card: AgentCard) => new ClientFactory({ transports: [queue] }).createFromAgentCard(card),
    timeoutMs: hopTimeoutMs,
    signer: serviceSigner({ key: SUPERVISOR_KEY.privateKey }),
    ...(replicaWaitMs
      ? {
          replicaWaitMs,
          liveReplicas: async (agent: string) => (await registry.get(agent))?.instances.length ?? 0,
        }
      : {}),
  });
  const supervisorAgent = defineAgent({ name: 'supervisor', instructions: 'Delegate.', tools });
  const supervisorModel = new ScriptedModel({
    turns: [],
    whenExhausted: (request) => {
      const last = request.messages.at(-1);
      const text = lastUserText(request.messages);
      if (last?.role === 'user') {
        const tool = /refund/i.test(text) ? 'orders_refunds' : 'orders_order_status';
        return { toolCalls: [{ name: tool, arguments: { request: text } }] };
      }
      return { text: `Supervisor: ${last?.role === 'tool' ? last.content : ''}` };
    },
  });
  const supervisor = await hostAgent({
    agent: supervisorAgent,
    model: supervisorModel,
    http: {},
    auth: { tokens: { customers: { [CUSTOMER_TOKEN]: 'C001' }, operators: { [OPERATOR_TOKEN]: 'ops-ada' } } },
    approvals: new MemoryApprovalBoard(),
    ownerResolver: actingForOwner(),
    logger: silentLogger(),
  });
  await supervisor.start();

  const fetchAs =
    (token: string): typeof fetch =>
    (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('Authorization', `Bearer ${token}`);
      return fetch(input, { ...init, headers });
    };
  return {
    url: supervisor.url,
    worker,
    customer: () =>
      new ClientFactory({
        transports: [new JsonRpcTransportFactory({ fetchImpl: fetchAs(CUSTOMER_TOKEN) })],
        cardResolver: new DefaultAgentCardResolver({ fetchImpl: fetchAs(CUSTOMER_TOKEN) }),
      }).createFromUrl(supervisor.url),
    admin: (path, init = {}) =>
      fetch(`${supervisor.url}/admin${path}`, {
        ...init,
        headers: {
          Authorization: `Bearer ${OPERATOR_TOKEN}`,
          'Content-Type': 'application/json',
          ...init.headers,
        },
      }),
    async waitForState(client, taskId, state) {
      for (let i = 0; i < 200; i++) {
        const task = await client.getTask({ tenant: '', id: taskId, historyLength: undefined });
        if (task.status?.state === state) return task;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`task ${taskId} never reached ${TaskState[state]}`);
    },
    startWorker,
    async close() {
      await supervisor.close();
      await queue.close();
      if (workerStarted) await workerHost.close({ graceMs: 1_000 });
    },
  };
}

export const uniqueNamespace = () => `test-sup-${randomUUID().slice(0, 8)}`;
