import { randomUUID } from 'node:crypto';
import { AgentCard, type Message, type Part, Role, type SendMessageRequest, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { BULLMQ_BINDING, type QueueAddress, queueUrl } from '../../src/index.ts';

/** The card of the echo agent, serving its queue in protocol version 1.0. */
export function echoCard(address: QueueAddress): AgentCard {
  return AgentCard.fromJSON({
    name: 'echo',
    description: 'Says back what it was told.',
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    supportedInterfaces: [
      { url: queueUrl(address), protocolBinding: BULLMQ_BINDING, protocolVersion: '1.0' },
    ],
  });
}

const text = (value: string): Part => ({
  content: { $case: 'text', value },
  mediaType: 'text/plain',
  filename: '',
  metadata: {},
});

/** A user message with one text part, as the SDK client sends it. */
export function userMessage(
  value: string,
  { messageId = randomUUID() }: { messageId?: string } = {},
): Message {
  return {
    messageId,
    role: Role.ROLE_USER,
    parts: [text(value)],
    contextId: '',
    taskId: '',
    metadata: {},
    extensions: [],
    referenceTaskIds: [],
  };
}

/** A SendMessage request around a message: blocking, or returning once the task exists. */
export function sendRequest(message: Message, returnImmediately = false): SendMessageRequest {
  return {
    tenant: '',
    message,
    configuration: returnImmediately
      ? { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: true }
      : undefined,
    metadata: {},
  };
}

/**
 * A plain SDK executor for the binding's tests: the task, a working update, then after `delayMs`
 * the answer (an artifact saying what it was told and by whom) and `completed`. A cancel ends the
 * wait at once with `canceled`. `started` counts the runs, for tests that a message ran once.
 */
export class EchoExecutor implements AgentExecutor {
  readonly #delayMs: number;
  readonly #running = new Map<string, AbortController>();
  started = 0;

  constructor({ delayMs = 0 }: { delayMs?: number } = {}) {
    this.#delayMs = delayMs;
  }

  async execute({ taskId, contextId, userMessage, task, context }: RequestContext, bus: ExecutionEventBus) {
    this.started += 1;
    const status = (state: TaskState, words?: string) =>
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: {
            state,
            timestamp: new Date().toISOString(),
            message: words
              ? {
                  ...userMessage,
                  messageId: randomUUID(),
                  role: Role.ROLE_AGENT,
                  taskId,
                  contextId,
                  parts: [text(words)],
                }
              : undefined,
          },
          metadata: {},
        }),
      );
    bus.publish(
      AgentEvent.task(
        task ?? {
          id: taskId,
          contextId,
          status: {
            state: TaskState.TASK_STATE_SUBMITTED,
            timestamp: new Date().toISOString(),
            message: undefined,
          },
          artifacts: [],
          history: [userMessage],
          metadata: {},
        },
      ),
    );
    status(TaskState.TASK_STATE_WORKING, 'Step 1: listening');
    const controller = new AbortController();
    this.#running.set(taskId, controller);
    try {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.#delayMs);
        controller.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    } finally {
      this.#running.delete(taskId);
    }
    if (controller.signal.aborted) return status(TaskState.TASK_STATE_CANCELED, 'Canceled.');
    const said = userMessage.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : ''));
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact: {
          artifactId: randomUUID(),
          name: 'answer',
          description: '',
          parts: [text(`${context.user?.userName || 'someone'} said: ${said.join('')}`)],
          metadata: {},
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: {},
      }),
    );
    status(TaskState.TASK_STATE_COMPLETED);
  }

  async cancelTask(taskId: string): Promise<void> {
    this.#running.get(taskId)?.abort();
  }
}
