import { randomUUID } from 'node:crypto';
import { type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { type Client, ClientFactory } from '@a2a-js/sdk/client';
import { DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { A2aQueueServer, BULLMQ_BINDING, QueueTransportFactory, queueUrl } from '@switchboard/a2a-bullmq';
import { MemoryIntentStore, silentLogger } from '@switchboard/agent';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildAgentCard, deduplicateMessages, SwitchboardAgentExecutor } from '../src/index.ts';
import { sendRequest, userMessage } from './support/messages.ts';
import { keysOf, testRedis } from './support/redis.ts';
import { createShopAgent } from './support/shop-agent.ts';

const redis = testRedis();
afterAll(() => redis.quit());

let prefix: string;
let server: A2aQueueServer;
let factory: QueueTransportFactory;
let clients: Client[];

beforeEach(async () => {
  prefix = `{test:${randomUUID()}}`;
  const address = { queue: 'shop', prefix };
  const { agent, model } = createShopAgent({ redis, prefix, worker: 'w1', lookupMs: 300 });
  const card = buildAgentCard({
    agent,
    interfaces: [{ url: queueUrl(address), protocolBinding: BULLMQ_BINDING }],
  });
  const executor = new SwitchboardAgentExecutor({
    agent,
    model,
    intents: new MemoryIntentStore(),
    logger: silentLogger(),
  });
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  server = new A2aQueueServer({
    requestHandler: deduplicateMessages({ handler, redis, prefix, logger: silentLogger() }),
    card,
    address,
    redis,
    logger: silentLogger(),
  });
  await server.start();
  factory = new QueueTransportFactory({ redis, timeoutMs: 10_000, logger: silentLogger() });
  const clientFactory = new ClientFactory({ transports: [factory] });
  clients = [await clientFactory.createFromAgentCard(card), await clientFactory.createFromAgentCard(card)];
});

afterEach(async () => {
  await factory.close();
  await server.close({ graceMs: 2_000 });
  const keys = await keysOf(redis, `${prefix}*`);
  if (keys.length > 0) await Promise.all(keys.map((key) => redis.unlink(key)));
});

/** The task a streamed event is about. */
function taskIdOf(event: StreamResponse): string | undefined {
  const payload = event.payload;
  if (payload?.$case === 'task') return payload.value.id;
  if (payload?.$case === 'statusUpdate' || payload?.$case === 'artifactUpdate') return payload.value.taskId;
  return undefined;
}

/** The task state a streamed event tells, if any. */
function stateOf(event: StreamResponse | undefined): TaskState | undefined {
  const payload = event?.payload;
  if (payload?.$case === 'task') return payload.value.status?.state;
  if (payload?.$case === 'statusUpdate') return payload.value.status?.state;
  return undefined;
}

const receipts = async (orderId: string) => Number(await redis.get(`${prefix}:receipts:${orderId}`));

describe('deduplicateMessages over the queue', () => {
  it('runs the same messageId once, and answers both senders with the same task', async () => {
    const message = userMessage('A20002 please');
    const [a, b] = await Promise.all(clients.map((client) => client.sendMessage(sendRequest(message))));
    expect((a as Task).id).toBe((b as Task).id);
    expect(await receipts('A20002')).toBe(1);
  });

  it('answers a streaming duplicate with the first task, followed to its end', async () => {
    const message = userMessage('A20003 please');
    const first = clients[0]?.sendMessage(sendRequest(message)) as Promise<Task>;
    // The second sender streams once the first job has claimed the message.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const events: StreamResponse[] = [];
    for await (const event of clients[1]?.sendMessageStream(sendRequest(message)) ?? []) events.push(event);
    const task = await first;
    expect(new Set(events.map(taskIdOf))).toEqual(new Set([task.id]));
    expect(stateOf(events.at(-1))).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(await receipts('A20003')).toBe(1);
  });

  it('answers a message sent again after it finished with the task it ran, without running it again', async () => {
    const message = userMessage('A20004 please');
    const a = (await clients[0]?.sendMessage(sendRequest(message))) as Task;
    const again = (await clients[1]?.sendMessage(
      sendRequest(userMessage('A20004 please', { messageId: message.messageId })),
    )) as Task;
    expect(again.id).toBe(a.id);
    expect(again.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(await receipts('A20004')).toBe(1);
  });
});
