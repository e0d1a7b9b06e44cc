import { type Message, type Part, type Task, TaskState } from '@a2a-js/sdk';
import type { ExecutionEventBus } from '@a2a-js/sdk/server';
import { ANSWER_ARTIFACT, agentMessage, TRANSIENT_KEY, textPart } from '@switchboard/protocol';

/** Publishes one task's events on the SDK's bus, in the order the SDK requires. */
export class TaskPublisher {
  #finished = false;
  /** The task not yet published: it goes out with the first status. */
  #pending: { task: Task; fresh: boolean } | undefined;

  readonly bus: ExecutionEventBus;
  readonly taskId: string;
  readonly contextId: string;

  constructor(bus: ExecutionEventBus, taskId: string, contextId: string) {
    this.bus = bus;
    this.taskId = taskId;
    this.contextId = contextId;
  }

  /**
   * The task this run works on: a new one (holding the user's message) or the one it continues. It is
   * published with the first status: a new task that goes to work is published once, already working
   * (one event and one save fewer than submitted-then-working); any other first status follows the
   * task as its own event.
   */
  task(existing: Task | undefined, userMessage: Message, metadata: Record<string, unknown>): void {
    this.#pending = existing
      ? { task: existing, fresh: false }
      : {
          task: {
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
          },
          fresh: true,
        };
  }

  /**
   * A status update. Its facts (`metadata`) ride on the status message, where a reader of the stream
   * or of the task's history finds them; the event carries none, so they do not pile up in the task's
   * own metadata (the SDK merges an event's metadata into the task's).
   *
   * `text` undefined is a status with no message: its state says all there is (a task going to
   * work, a task whose answer is its artifact). Clients of other frameworks render a status
   * message's text as part of the reply, so a message is only written where there is something to
   * read.
   */
  status(
    state: TaskState,
    text: string | undefined,
    metadata: Record<string, unknown> = {},
    extra: Part[] = [],
    {
      transient = false,
      eventMetadata = {},
    }: { transient?: boolean; eventMetadata?: Record<string, unknown> } = {},
  ): void {
    if (this.#finished) return;
    const status = {
      state,
      message:
        text === undefined
          ? undefined
          : agentMessage({
              taskId: this.taskId,
              contextId: this.contextId,
              parts: [textPart(text), ...extra],
              metadata: transient ? { ...metadata, [TRANSIENT_KEY]: true } : metadata,
            }),
      timestamp: new Date().toISOString(),
    };
    const pending = this.#pending;
    this.#pending = undefined;
    if (pending?.fresh && state === TaskState.TASK_STATE_WORKING && !transient) {
      this.bus.publish({ kind: 'task', data: { ...pending.task, status } });
      return;
    }
    if (pending) this.bus.publish({ kind: 'task', data: pending.task });
    this.bus.publish({
      kind: 'statusUpdate',
      data: { taskId: this.taskId, contextId: this.contextId, status, metadata: eventMetadata },
    });
  }

  artifact(answer: string): void {
    const pending = this.#pending;
    this.#pending = undefined;
    if (pending) this.bus.publish({ kind: 'task', data: pending.task });
    this.bus.publish({
      kind: 'artifactUpdate',
      data: {
        taskId: this.taskId,
        contextId: this.contextId,
        artifact: {
          artifactId: ANSWER_ARTIFACT,
          name: ANSWER_ARTIFACT,
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

  /**
   * The final status; `text` undefined when the answer went out as the `answer` artifact.
   * `eventMetadata` rides on the event itself, so the SDK merges it into the task's metadata: what
   * the task says of its latest run as a whole (its cost, `COST_KEY`), one value per key.
   */
  finish(
    state: TaskState,
    text: string | undefined,
    extra: Part[] = [],
    eventMetadata: Record<string, unknown> = {},
  ): void {
    this.status(state, text, {}, extra, { eventMetadata });
    this.#finished = true;
  }
}
