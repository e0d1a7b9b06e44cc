import { createHash } from 'node:crypto';
import type {
  AgentCard,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from '@a2a-js/sdk';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { queueDeliveryOf } from '@switchboard/a2a-bullmq';
import { type Logger, stderrLogger } from '@switchboard/agent';
import { setCallVariable, TERMINAL_TASK_STATES } from '@switchboard/protocol';
import type { RedisConnection } from '@switchboard/redis';
import { HostError } from '../../errors.ts';
import { TASK_STARTED_HOOK, type TaskStartedHook } from '../../executor/task-started.ts';
import { stillRunning, untilTaskStops } from '../../tasks/detached-task.ts';
import { MessageDedup } from './message-dedup.ts';

/** Options of {@link deduplicateMessages}. */
export interface DeduplicateMessagesOptions {
  /** The request handler to protect, e.g. `createAgentHandler(...).requestHandler`. */
  handler: A2ARequestHandler;
  /** Where each message's claim is kept. */
  redis: RedisConnection;
  /** Key prefix of the claims: the agent's queue prefix (`address.prefix`), for Redis Cluster. */
  prefix: string;
  /** How long a claim is remembered (default 24 h). */
  ttlSeconds?: number;
  logger?: Logger;
}

/** How long a duplicate waits for the task of the request that claimed its message first. */
const DUPLICATE_WAIT_MS = 10_000;
const DUPLICATE_POLL_MS = 100;

/** What to do with a message: run it (as given, or rewritten), or answer with a task it started. */
type Admission = { kind: 'run'; params: SendMessageRequest } | { kind: 'answer'; taskId: string };

/** A stable conversation id for a message that starts one, in UUID form. */
function contextIdFor(messageId: string): string {
  const hex = createHash('sha256').update(`context:${messageId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function withMessage(
  params: SendMessageRequest,
  message: Message,
  patch: Partial<Message>,
): SendMessageRequest {
  return { ...params, message: { ...message, ...patch } };
}

/**
 * The delivery policy of Switchboard's agents over the BullMQ binding, as a request handler
 * decorator: each `messageId` runs once, whatever the queue delivers.
 *
 * - A message that arrives twice (two jobs, one `messageId`) runs once; the second request is
 *   answered with the task the first one started (its state for `SendMessage`, a subscription for
 *   `SendStreamingMessage`).
 * - A job that BullMQ delivers again after its worker died continues the task it had started (the
 *   executor reports the task through its `TASK_STARTED_HOOK`), in the same conversation:
 *   a message that starts one gets a `contextId` derived from its `messageId`.
 *
 * Requests that did not come over the queue (no `queueDeliveryOf`) pass through unchanged, so the
 * one handler can serve HTTP too.
 *
 * @example
 * const server = new A2aQueueServer({
 *   requestHandler: deduplicateMessages({ handler: hosted.requestHandler, redis, prefix: address.prefix }),
 *   card, address, redis,
 * });
 */
export function deduplicateMessages({
  handler,
  redis,
  prefix,
  ttlSeconds,
  logger = stderrLogger(),
}: DeduplicateMessagesOptions): A2ARequestHandler {
  const problems: string[] = [];
  if (typeof handler?.sendMessage !== 'function') {
    problems.push('handler must be an A2A request handler, e.g. createAgentHandler(...).requestHandler');
  }
  if (typeof redis?.set !== 'function') problems.push('redis must be an ioredis Redis connection');
  if (typeof prefix !== 'string' || !prefix) problems.push("prefix must be the agent's queue prefix");
  if (problems.length > 0) {
    throw new HostError('INVALID_OPTIONS', {
      message: `deduplicateMessages options are not valid: ${problems.join('; ')}.`,
    });
  }
  const dedup = new MessageDedup({ redis, prefix, ...(ttlSeconds === undefined ? {} : { ttlSeconds }) });
  return new DeduplicatingHandler(handler, dedup, logger);
}

class DeduplicatingHandler implements A2ARequestHandler {
  readonly #inner: A2ARequestHandler;
  readonly #dedup: MessageDedup;
  readonly #logger: Logger;

  constructor(inner: A2ARequestHandler, dedup: MessageDedup, logger: Logger) {
    this.#inner = inner;
    this.#dedup = dedup;
    this.#logger = logger;
  }

  async sendMessage(params: SendMessageRequest, call: ServerCallContext): Promise<Message | Task> {
    const admission = await this.#admit(params, call);
    if (admission.kind === 'answer') return this.#inner.getTask({ tenant: '', id: admission.taskId }, call);
    const result = await this.#inner.sendMessage(admission.params, call);
    // A task answered before it ended keeps its job until it does, so a crash redelivers the job
    // and another replica continues the run, as for a request that waited for the end.
    const running = stillRunning(result);
    const delivery = queueDeliveryOf(call);
    if (running && delivery) {
      delivery.keepActiveUntil(
        untilTaskStops({ handler: this.#inner, task: running, call, tenant: params.tenant ?? '' }),
      );
    }
    return result;
  }

  async *sendMessageStream(
    params: SendMessageRequest,
    call: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const admission = await this.#admit(params, call);
    if (admission.kind === 'run') {
      yield* this.#inner.sendMessageStream(admission.params, call);
      return;
    }
    const task = await this.#inner.getTask({ tenant: '', id: admission.taskId }, call);
    if (task.status && !TERMINAL_TASK_STATES.has(task.status.state)) {
      yield* this.#inner.resubscribe({ tenant: '', id: task.id }, call);
      return;
    }
    yield { payload: { $case: 'task', value: task } };
  }

  /** Claims the message for this job, and says whether it runs here or is already answered. */
  async #admit(params: SendMessageRequest, call: ServerCallContext): Promise<Admission> {
    const delivery = queueDeliveryOf(call);
    const message = params.message;
    if (!delivery || !message?.messageId) return { kind: 'run', params };
    const { messageId } = message;
    const { jobId } = delivery;
    // A recovered job must land in the same conversation, so a new one gets an id derived from the message.
    const run =
      !message.contextId && !message.taskId
        ? withMessage(params, message, { contextId: contextIdFor(messageId) })
        : params;
    const claim = await this.#dedup.claim({ messageId, jobId });
    const started: TaskStartedHook = ({ taskId, contextId }) =>
      this.#dedup.recordTask({ messageId, jobId, taskId, contextId });
    setCallVariable(call, TASK_STARTED_HOOK, started);
    if (claim.kind === 'new') return { kind: 'run', params: run };
    if (claim.kind === 'retry') {
      if (!claim.taskId) return { kind: 'run', params: run };
      const task = await this.#inner.getTask({ tenant: '', id: claim.taskId }, call).catch(() => undefined);
      if (!task) return { kind: 'run', params: run };
      if (task.status && TERMINAL_TASK_STATES.has(task.status.state))
        return { kind: 'answer', taskId: task.id };
      this.#logger.info({ jobId, taskId: claim.taskId }, 'recovered job continues its task');
      return { kind: 'run', params: withMessage(run, run.message ?? message, { taskId: claim.taskId }) };
    }
    let taskId = claim.taskId;
    for (let waited = 0; !taskId && waited < DUPLICATE_WAIT_MS; waited += DUPLICATE_POLL_MS) {
      await new Promise((resolve) => setTimeout(resolve, DUPLICATE_POLL_MS));
      taskId = (await this.#dedup.read(messageId))?.taskId;
    }
    if (!taskId) {
      throw new HostError('MESSAGE_IN_FLIGHT', {
        message: `Message ${messageId} is already being handled by another request; read its task with GetTask once it has started.`,
      });
    }
    return { kind: 'answer', taskId };
  }

  getAgentCard(): Promise<AgentCard> {
    return this.#inner.getAgentCard();
  }

  getAuthenticatedExtendedAgentCard(
    params: GetExtendedAgentCardRequest,
    call: ServerCallContext,
  ): Promise<AgentCard> {
    return this.#inner.getAuthenticatedExtendedAgentCard(params, call);
  }

  getTask(params: GetTaskRequest, call: ServerCallContext): Promise<Task> {
    return this.#inner.getTask(params, call);
  }

  cancelTask(params: CancelTaskRequest, call: ServerCallContext): Promise<Task> {
    return this.#inner.cancelTask(params, call);
  }

  listTasks(params: ListTasksRequest, call: ServerCallContext): Promise<ListTasksResponse> {
    return this.#inner.listTasks(params, call);
  }

  resubscribe(
    params: SubscribeToTaskRequest,
    call: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    return this.#inner.resubscribe(params, call);
  }

  createTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    call: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return this.#inner.createTaskPushNotificationConfig(params, call);
  }

  getTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
    call: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return this.#inner.getTaskPushNotificationConfig(params, call);
  }

  listTaskPushNotificationConfigs(
    params: ListTaskPushNotificationConfigsRequest,
    call: ServerCallContext,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    return this.#inner.listTaskPushNotificationConfigs(params, call);
  }

  deleteTaskPushNotificationConfig(
    params: DeleteTaskPushNotificationConfigRequest,
    call: ServerCallContext,
  ): Promise<void> {
    return this.#inner.deleteTaskPushNotificationConfig(params, call);
  }
}
