import { type SendMessageRequest, type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { sendMessageRequest, userMessage } from '@switchboard/protocol';
import { expect } from 'vitest';
import { ANSWER_START, ASK, expectAnswerOnce, peerTest } from './peer-test.ts';
import { readV1Stream, shownV1 } from './v1-shapes.ts';
import { read03Stream, shown03, type Task03 } from './v03-shapes.ts';

/** A client with a task API in A2A 0.2/0.3 shapes, as its test file wires it. */
export interface TaskClient03 {
  send(text: string, contextId?: string): Promise<Task03>;
  stream(text: string): AsyncIterable<unknown>;
  get(id: string): Promise<Task03>;
  cancel(id: string): Promise<Task03>;
  resubscribe(id: string): AsyncIterable<unknown>;
}

/**
 * `events`, running `action` once the first has arrived: a resubscription's first event is the task
 * as it stands, so the action (a cancel) comes after the server took the subscription, not before.
 */
async function* afterFirst<T>(events: AsyncIterable<T>, action: () => Promise<unknown>): AsyncIterable<T> {
  let first = true;
  for await (const event of events) {
    yield event;
    if (first) await action();
    first = false;
  }
}

/** A 0.2/0.3 `message/send` params object of one text part. */
export const message03 = (text: string, contextId?: string) => ({
  message: {
    kind: 'message' as const,
    messageId: crypto.randomUUID(),
    role: 'user' as const,
    parts: [{ kind: 'text' as const, text }],
    ...(contextId ? { contextId } : {}),
  },
});

/** The result of a JSON-RPC envelope a client hands back as is, or what it said went wrong. */
export function resultOf<T>(response: unknown): T {
  const envelope = response as { result?: T; error?: unknown };
  if (envelope.error !== undefined || envelope.result === undefined)
    throw new Error(`an error, not a result: ${JSON.stringify(envelope.error)}`);
  return envelope.result;
}

/**
 * The task operations every client with a 0.2/0.3 task API is held to: a blocking send, a stream
 * (progress apart from the answer), get, cancel of a task waiting for an approval, and a follow-up in
 * the same context. Each asserts the answer once and the final state.
 */
export function taskOperations03(client: string, connect: () => Promise<TaskClient03> | TaskClient03): void {
  peerTest(client, 'send', 'a blocking send completes with the answer once', async () => {
    const task = await (await connect()).send(ASK.stock);
    expect(task.status.state).toBe('completed');
    expectAnswerOnce(shown03(task), ANSWER_START.stock);
  });

  peerTest(
    client,
    'stream',
    'the stream ends completed; the answer arrives once, progress apart',
    async () => {
      const read = await read03Stream((await connect()).stream(ASK.stock));
      expect(read.state).toBe('completed');
      expectAnswerOnce(read.answer, ANSWER_START.stock);
      expect(read.progress).toContain('running inventory_stock');
    },
  );

  peerTest(client, 'get', 'a finished task reads back completed, with the answer once', async () => {
    const tasks = await connect();
    const got = await tasks.get((await tasks.send(ASK.stock)).id);
    expect(got.status.state).toBe('completed');
    expectAnswerOnce(shown03(got), ANSWER_START.stock);
  });

  peerTest(client, 'cancel', 'a task waiting for an approval is canceled', async () => {
    const tasks = await connect();
    const waiting = await tasks.send(ASK.refund);
    expect(waiting.status.state).toBe('input-required');
    expect((await tasks.cancel(waiting.id)).status.state).toBe('canceled');
  });

  peerTest(
    client,
    'resubscribe',
    'to a task waiting for an approval: it ends canceled when canceled',
    async () => {
      const tasks = await connect();
      const waiting = await tasks.send(ASK.refund);
      const read = await read03Stream(
        afterFirst(tasks.resubscribe(waiting.id), () => tasks.cancel(waiting.id)),
      );
      expect(read.state).toBe('canceled');
    },
  );

  peerTest(client, 'follow-up', 'a second message in the same context is answered there', async () => {
    const tasks = await connect();
    const first = await tasks.send(ASK.stock);
    const second = await tasks.send(ASK.order, first.contextId);
    expect(second.contextId).toBe(first.contextId);
    expectAnswerOnce(shown03(second), ANSWER_START.order);
  });
}

/** A client with a task API in A2A 1.0 shapes (the SDK's ProtoJSON types), as its test file wires it. */
export interface TaskClientV1 {
  send(request: SendMessageRequest): Promise<Task>;
  stream(request: SendMessageRequest): AsyncIterable<StreamResponse>;
  get(id: string): Promise<Task>;
  cancel(id: string): Promise<Task>;
  resubscribe(id: string): AsyncIterable<StreamResponse>;
  list(contextId: string): Promise<{ tasks: Task[] }>;
}

const requestV1 = (text: string, contextId = '') =>
  sendMessageRequest({ message: userMessage({ text, contextId }) });

/** The same operations for a 1.0 client, and list (ListTasks) of a context. */
export function taskOperationsV1(client: string, connect: () => Promise<TaskClientV1> | TaskClientV1): void {
  peerTest(client, 'send', 'a blocking send completes with the answer once', async () => {
    const task = await (await connect()).send(requestV1(ASK.stock));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expectAnswerOnce(shownV1(task), ANSWER_START.stock);
  });

  peerTest(
    client,
    'stream',
    'the stream ends completed; the answer arrives once, progress apart',
    async () => {
      const read = await readV1Stream((await connect()).stream(requestV1(ASK.stock)));
      expect(read.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expectAnswerOnce(read.answer, ANSWER_START.stock);
      expect(read.progress).toContain('running inventory_stock');
    },
  );

  peerTest(client, 'get', 'a finished task reads back completed, with the answer once', async () => {
    const tasks = await connect();
    const got = await tasks.get((await tasks.send(requestV1(ASK.stock))).id);
    expect(got.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expectAnswerOnce(shownV1(got), ANSWER_START.stock);
  });

  peerTest(client, 'cancel', 'a task waiting for an approval is canceled', async () => {
    const tasks = await connect();
    const waiting = await tasks.send(requestV1(ASK.refund));
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect((await tasks.cancel(waiting.id)).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  peerTest(
    client,
    'resubscribe',
    'to a task waiting for an approval: it ends canceled when canceled',
    async () => {
      const tasks = await connect();
      const waiting = await tasks.send(requestV1(ASK.refund));
      const read = await readV1Stream(
        afterFirst(tasks.resubscribe(waiting.id), () => tasks.cancel(waiting.id)),
      );
      expect(read.state).toBe(TaskState.TASK_STATE_CANCELED);
    },
  );

  peerTest(client, 'follow-up', 'a second message in the same context is answered there', async () => {
    const tasks = await connect();
    const first = await tasks.send(requestV1(ASK.stock));
    const second = await tasks.send(requestV1(ASK.order, first.contextId));
    expect(second.contextId).toBe(first.contextId);
    expectAnswerOnce(shownV1(second), ANSWER_START.order);
  });

  peerTest(client, 'list', "lists the context's tasks", async () => {
    const tasks = await connect();
    const first = await tasks.send(requestV1(ASK.stock));
    const second = await tasks.send(requestV1(ASK.stock, first.contextId));
    const listed = await tasks.list(first.contextId);
    expect(listed.tasks.map((task) => task.id).sort()).toEqual([first.id, second.id].sort());
  });
}

/** ListTasks of one context, all states, first page: the request both 1.0 clients send. */
export const listRequest = (contextId: string) => ({
  tenant: '',
  contextId,
  status: TaskState.TASK_STATE_UNSPECIFIED,
  pageToken: '',
  statusTimestampAfter: undefined,
});
