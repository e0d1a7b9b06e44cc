import { type SendMessageRequest, type Task, TaskState } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { sendMessageRequest, userMessage } from '@switchboard/protocol';

/** The SDK's client for a supervisor, sending a bearer token. */
export function sdkClient(url: string, token: string): Promise<Client> {
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('Authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  return new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
  }).createFromUrl(url);
}

/** A SendMessage request with one text part (optionally returning as soon as the task exists). */
export function textMessage(text: string, { returnImmediately = false } = {}): SendMessageRequest {
  return sendMessageRequest({ message: userMessage({ text }), returnImmediately });
}

/** The answer artifact's text. */
export const answerOf = (task: Task) =>
  (task.artifacts[0]?.parts ?? [])
    .flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : []))
    .join('\n');

/** The status message's text. */
export const statusTextOf = (task: Task) =>
  (task.status?.message?.parts ?? [])
    .flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : []))
    .join('\n');

/** Polls GetTask until the task is in one of `states`; throws after `seconds`. */
export async function untilState(
  client: Client,
  taskId: string,
  states: TaskState[],
  seconds = 40,
): Promise<Task> {
  for (let i = 0; i < seconds * 4; i++) {
    const task = await client
      .getTask({ tenant: '', id: taskId, historyLength: undefined })
      .catch(() => undefined);
    if (task && states.includes(task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED)) return task;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`task ${taskId} never reached ${states.map((state) => TaskState[state]).join(' or ')}`);
}

/** Terminal task states. */
export const TERMINAL = [
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
];
