import { type Message, type Part, type Task, TaskState } from '@a2a-js/sdk';
import type { ExecutionEventBus } from '@a2a-js/sdk/server';
import { agentMessage, textPart } from '../protocol/messages.ts';
import { TRANSIENT_KEY } from '../protocol/metadata-keys.ts';

/** Publishes one task's events on the SDK's bus, in the order the SDK requires. */
export class TaskPublisher {
  #finished = false;

  readonly bus: ExecutionEventBus;
  readonly taskId: string;
  readonly contextId: string;

  constructor(bus: ExecutionEventBus, taskId: string, contextId: string) {
    this.bus = bus;
    this.taskId = taskId;
    this.contextId = contextId;
  }

  task(existing: Task | undefined, userMessage: Message, metadata: Record<string, unknown>): void {
    const task: Task = existing ?? {
      id: this.taskId,
      contextId: this.contextId,
      status: {
        state: TaskState.TASK_STATE_SUBMITTED,
        message: undefined,
        timestamp: new Date().toISOString(),
      },
      artifacts: [],
      history: [userMessage],
      metadata,
    };
    this.bus.publish({ kind: 'task', data: task });
  }

  status(
    state: TaskState,
    text: string,
    metadata: Record<string, unknown> = {},
    extra: Part[] = [],
    { transient = false }: { transient?: boolean } = {},
  ): void {
    if (this.#finished) return;
    this.bus.publish({
      kind: 'statusUpdate',
      data: {
        taskId: this.taskId,
        contextId: this.contextId,
        status: {
          state,
          message: agentMessage({
            taskId: this.taskId,
            contextId: this.contextId,
            parts: [textPart(text), ...extra],
            metadata: transient ? { ...metadata, [TRANSIENT_KEY]: true } : metadata,
          }),
          timestamp: new Date().toISOString(),
        },
        metadata,
      },
    });
  }

  artifact(answer: string): void {
    this.bus.publish({
      kind: 'artifactUpdate',
      data: {
        taskId: this.taskId,
        contextId: this.contextId,
        artifact: {
          artifactId: 'answer',
          name: 'answer',
          description: 'The agent’s answer',
          parts: [textPart(answer)],
          metadata: {},
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: {},
      },
    });
  }

  finish(state: TaskState, text: string, extra: Part[] = []): void {
    this.status(state, text, {}, extra);
    this.#finished = true;
  }
}
