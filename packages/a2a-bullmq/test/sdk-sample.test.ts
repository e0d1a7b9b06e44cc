import { randomUUID } from 'node:crypto';
import {
  AgentCard,
  Message,
  SendMessageRequest,
  type StreamResponse,
  Task,
  TaskState,
  TaskStatusUpdateEvent,
} from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { AgentEvent, type AgentExecutor, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { afterAll, expect, it } from 'vitest';
import {
  A2aQueueServer,
  BULLMQ_BINDING,
  createRedisConnection,
  defaultQueueAddress,
  QueueTransportFactory,
  queueUrl,
} from '../src/index.ts';

// The README's example as written there: the SDK's own executor, request handler, task store and
// client, with this package between them and nothing else of Switchboard.
const redis = createRedisConnection({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
const address = defaultQueueAddress('echo', `test-${randomUUID()}`);
afterAll(async () => {
  const keys = await redis.keys(`${address.prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

/** A plain SDK executor, as the SDK's samples write one: it answers each message with a message. */
const echo: AgentExecutor = {
  async execute({ taskId, contextId, userMessage }, bus) {
    const said = userMessage.parts.find((part) => part.content?.$case === 'text')?.content?.value;
    const reply = { role: 'ROLE_AGENT', messageId: randomUUID(), parts: [{ text: `You said: ${said}` }] };
    const task = Task.fromJSON({ id: taskId, contextId, history: [Message.toJSON(userMessage)] });
    const done = { taskId, contextId, status: { state: 'TASK_STATE_COMPLETED', message: reply } };
    bus.publish(AgentEvent.task(task));
    bus.publish(AgentEvent.statusUpdate(TaskStatusUpdateEvent.fromJSON(done)));
  },
  cancelTask: async () => {},
};

const replyOf = (task: Task) => {
  const part = task.status?.message?.parts[0]?.content;
  return part?.$case === 'text' ? part.value : undefined;
};

it('serves the SDK sample executor over a queue to the SDK client: send a message, stream, get the task', async () => {
  const card = AgentCard.fromJSON({
    name: 'echo',
    capabilities: { streaming: true },
    supportedInterfaces: [
      { url: queueUrl(address), protocolBinding: BULLMQ_BINDING, protocolVersion: '1.0' },
    ],
  });
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), echo);
  const server = new A2aQueueServer({ requestHandler, card, address, redis });
  await server.start();
  const queue = new QueueTransportFactory({ redis });
  try {
    const factory = new ClientFactory({ transports: [queue] });
    const client = await factory.createFromAgentCard(card);
    expect(client.transport.protocolName).toBe(BULLMQ_BINDING);
    const ask = (text: string) =>
      SendMessageRequest.fromJSON({
        message: { role: 'ROLE_USER', messageId: randomUUID(), parts: [{ text }] },
      });

    const task = (await client.sendMessage(ask('hello'))) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(replyOf(task)).toBe('You said: hello');

    const events: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(ask('again'))) events.push(event);
    expect(events.map((event) => event.payload?.$case)).toEqual(['task', 'statusUpdate']);
    const last = events.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.message?.parts[0]?.content).toEqual({
      $case: 'text',
      value: 'You said: again',
    });

    const stored = await client.getTask({ tenant: '', id: task.id });
    expect(stored.id).toBe(task.id);
    expect(replyOf(stored)).toBe('You said: hello');
  } finally {
    await queue.close();
    await server.close();
  }
});
