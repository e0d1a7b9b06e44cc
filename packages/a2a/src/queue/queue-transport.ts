import { randomUUID } from 'node:crypto';
import type { SendMessageResult } from '@a2a-js/sdk';
import {
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
  type MessageFns,
  SendMessageRequest,
  SendMessageResponse,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from '@a2a-js/sdk';
import type { RequestOptions, Transport } from '@a2a-js/sdk/client';
import { fromJsonRpcErrorResponse } from '@a2a-js/sdk/errors';
import type { Queue } from 'bullmq';
import { A2aError } from '../errors.js';
import { BULLMQ_BINDING } from './binding.js';
import type { JobEnvelope } from './envelope.js';
import type { ReplyInbox, ReplySubscription } from './reply-inbox.js';

/** Options of {@link QueueTransport}. */
export interface QueueTransportOptions {
  queue: Queue;
  inbox: ReplyInbox;
  /** Longest wait for a unary reply, or between two frames of a stream (default 120 s). */
  timeoutMs?: number;
  /** Requests larger than this are refused before they are sent (default 1 MiB). */
  maxRequestBytes?: number;
  /** Fills the envelope's trace slot (e.g. W3C `traceparent`) for each call. */
  injectTrace?: () => Record<string, string>;
}

type JsonRpcResponse = { jsonrpc: '2.0'; id: string | number | null; result?: unknown; error?: unknown };

/**
 * The SDK `Transport` of the BullMQ binding: every A2A operation becomes one job on the agent's
 * queue carrying the JSON-RPC request and the service parameters; replies come back on the
 * caller's {@link ReplyInbox}. Errors are the SDK's own JSON-RPC error classes, as over HTTP.
 */
export class QueueTransport implements Transport {
  readonly #queue: Queue;
  readonly #inbox: ReplyInbox;
  readonly #timeoutMs: number;
  readonly #maxRequestBytes: number;
  readonly #injectTrace: (() => Record<string, string>) | undefined;

  constructor({
    queue,
    inbox,
    timeoutMs = 120_000,
    maxRequestBytes = 1024 * 1024,
    injectTrace,
  }: QueueTransportOptions) {
    this.#queue = queue;
    this.#inbox = inbox;
    this.#timeoutMs = timeoutMs;
    this.#maxRequestBytes = maxRequestBytes;
    this.#injectTrace = injectTrace;
  }

  get protocolName(): string {
    return BULLMQ_BINDING;
  }

  get protocolVersion(): string {
    return '1.0';
  }

  async getExtendedAgentCard(
    params: GetExtendedAgentCardRequest,
    options?: RequestOptions,
  ): Promise<AgentCard> {
    return AgentCard.fromJSON(
      await this.#unary('GetExtendedAgentCard', GetExtendedAgentCardRequest, params, options),
    );
  }

  async sendMessage(params: SendMessageRequest, options?: RequestOptions): Promise<SendMessageResult> {
    const response = SendMessageResponse.fromJSON(
      await this.#unary('SendMessage', SendMessageRequest, params, options),
    );
    if (!response.payload)
      throw new A2aError('BAD_REPLY', { message: 'SendMessage reply has neither a task nor a message.' });
    return response.payload.value;
  }

  async *sendMessageStream(
    params: SendMessageRequest,
    options?: RequestOptions,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    for await (const result of this.#stream('SendStreamingMessage', SendMessageRequest, params, options)) {
      yield StreamResponse.fromJSON(result);
    }
  }

  async createTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    options?: RequestOptions,
  ): Promise<TaskPushNotificationConfig> {
    const result = await this.#unary(
      'CreateTaskPushNotificationConfig',
      TaskPushNotificationConfig,
      params,
      options,
    );
    return TaskPushNotificationConfig.fromJSON(result);
  }

  async getTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
    options?: RequestOptions,
  ): Promise<TaskPushNotificationConfig> {
    const result = await this.#unary(
      'GetTaskPushNotificationConfig',
      GetTaskPushNotificationConfigRequest,
      params,
      options,
    );
    return TaskPushNotificationConfig.fromJSON(result);
  }

  async listTaskPushNotificationConfig(
    params: ListTaskPushNotificationConfigsRequest,
    options?: RequestOptions,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    const result = await this.#unary(
      'ListTaskPushNotificationConfigs',
      ListTaskPushNotificationConfigsRequest,
      params,
      options,
    );
    return ListTaskPushNotificationConfigsResponse.fromJSON(result);
  }

  async deleteTaskPushNotificationConfig(
    params: DeleteTaskPushNotificationConfigRequest,
    options?: RequestOptions,
  ): Promise<void> {
    await this.#unary(
      'DeleteTaskPushNotificationConfig',
      DeleteTaskPushNotificationConfigRequest,
      params,
      options,
    );
  }

  async getTask(params: GetTaskRequest, options?: RequestOptions): Promise<Task> {
    return Task.fromJSON(await this.#unary('GetTask', GetTaskRequest, params, options));
  }

  async cancelTask(params: CancelTaskRequest, options?: RequestOptions): Promise<Task> {
    return Task.fromJSON(await this.#unary('CancelTask', CancelTaskRequest, params, options));
  }

  async listTasks(params: ListTasksRequest, options?: RequestOptions): Promise<ListTasksResponse> {
    return ListTasksResponse.fromJSON(await this.#unary('ListTasks', ListTasksRequest, params, options));
  }

  async *resubscribeTask(
    params: SubscribeToTaskRequest,
    options?: RequestOptions,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    for await (const result of this.#stream('SubscribeToTask', SubscribeToTaskRequest, params, options)) {
      yield StreamResponse.fromJSON(result);
    }
  }

  async #unary<P>(
    method: string,
    type: MessageFns<P>,
    params: P,
    options?: RequestOptions,
  ): Promise<unknown> {
    const subscription = await this.#send(method, type, params, options);
    try {
      const frame = await subscription.next({ timeoutMs: this.#timeoutMs, signal: options?.signal });
      return readResult(frame.body, method);
    } finally {
      subscription.close();
    }
  }

  async *#stream<P>(
    method: string,
    type: MessageFns<P>,
    params: P,
    options?: RequestOptions,
  ): AsyncGenerator<unknown> {
    const subscription = await this.#send(method, type, params, options);
    try {
      while (true) {
        const frame = await subscription.next({ timeoutMs: this.#timeoutMs, signal: options?.signal });
        if (frame.body !== undefined) yield readResult(frame.body, method);
        if (frame.kind === 'end') return;
      }
    } finally {
      subscription.close();
    }
  }

  async #send<P>(
    method: string,
    type: MessageFns<P>,
    params: P,
    options?: RequestOptions,
  ): Promise<ReplySubscription> {
    const requestId = randomUUID();
    const request = JSON.stringify({ jsonrpc: '2.0', id: requestId, method, params: type.toJSON(params) });
    if (Buffer.byteLength(request) > this.#maxRequestBytes) {
      throw new A2aError('INVALID_OPTIONS', {
        message: `The ${method} request is ${Buffer.byteLength(request)} bytes, over the ${this.#maxRequestBytes}-byte limit of this binding; send large content by URL.`,
      });
    }
    const serviceParameters = Object.fromEntries(
      Object.entries(options?.serviceParameters ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
    );
    const envelope: JobEnvelope = {
      v: 1,
      requestId,
      replyTo: this.#inbox.key,
      serviceParameters,
      request,
      ...(this.#injectTrace ? { trace: this.#injectTrace() } : {}),
    };
    const subscription = this.#inbox.open(requestId);
    try {
      await this.#queue.add(method, envelope, { jobId: requestId });
    } catch (error) {
      subscription.close();
      throw new A2aError('REDIS_UNAVAILABLE', {
        message: `Could not enqueue ${method}: Redis did not accept the job.`,
        cause: error,
      });
    }
    return subscription;
  }
}

function readResult(body: string | undefined, method: string): unknown {
  let response: JsonRpcResponse;
  try {
    response = JSON.parse(body ?? '') as JsonRpcResponse;
  } catch (error) {
    throw new A2aError('BAD_REPLY', { message: `The reply to ${method} is not JSON.`, cause: error });
  }
  if (response.error !== undefined) {
    throw fromJsonRpcErrorResponse(response as Parameters<typeof fromJsonRpcErrorResponse>[0]);
  }
  return response.result ?? null;
}
