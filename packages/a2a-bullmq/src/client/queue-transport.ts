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
  SendMessageRequest,
  SendMessageResponse,
  type StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from '@a2a-js/sdk';
import type { RequestOptions, Transport } from '@a2a-js/sdk/client';
import type { Tracer } from '@opentelemetry/api';
import type { Queue } from 'bullmq';
import { QueueBindingError } from '../errors.ts';
import { messageAttributes, requestAttributes, resultAttributes } from '../observe/span-attributes.ts';
import { BULLMQ_BINDING } from '../wire/queue-url.ts';
import { PROTOCOL_VERSION, QueueCalls, type ServiceParametersHook } from './queue-calls.ts';
import type { ReplyInbox } from './reply-inbox.ts';

/** Options of {@link QueueTransport}. */
export interface QueueTransportOptions {
  queue: Queue;
  inbox: ReplyInbox;
  /** The agent's name, as {@link ServiceParametersHook} sees it (default: the queue's name). */
  agent?: string;
  /**
   * Decides each call's service parameters from the exact JSON-RPC text it sends (default: the
   * call's own), e.g. to sign the request; see {@link ServiceParametersHook}.
   */
  serviceParameters?: ServiceParametersHook;
  /**
   * Longest wait for Redis to take a call's job, then for a unary reply, or between two frames of a
   * stream (default 120 s).
   */
  timeoutMs?: number;
  /** Requests larger than this are refused before they are sent (default 256 KiB, `DEFAULT_MAX_REQUEST_BYTES`). */
  maxRequestBytes?: number;
  /**
   * Fills the envelope's trace slot for each call, called with the `send` span active. Default: the
   * W3C context (`traceparent`, `tracestate`, `baggage`) of that span, through the global propagator.
   */
  injectTrace?: () => Record<string, string>;
  /**
   * Where the spans go (default: the `@switchboard/a2a-bullmq` tracer of the global tracer
   * provider, a no-op until an OpenTelemetry SDK is registered).
   */
  tracer?: Tracer;
}

/**
 * The SDK `Transport` of the BullMQ binding: every A2A operation becomes one job on the agent's
 * queue carrying the JSON-RPC request and the service parameters; replies come back on the
 * caller's {@link ReplyInbox}. Errors are the SDK's own JSON-RPC error classes, as over HTTP.
 *
 * Each call is a CLIENT span named after its A2A method (`SendMessage`, …) with `a2a.*` attributes,
 * around a PRODUCER span `send <queue>` whose W3C context travels in the envelope, so the agent's
 * `process <queue>` span continues the trace. A streaming call's span lasts until the stream ends.
 */
export class QueueTransport implements Transport {
  readonly #calls: QueueCalls;

  constructor(options: QueueTransportOptions) {
    this.#calls = new QueueCalls(options);
  }

  get protocolName(): string {
    return BULLMQ_BINDING;
  }

  get protocolVersion(): string {
    return PROTOCOL_VERSION;
  }

  async getExtendedAgentCard(
    params: GetExtendedAgentCardRequest,
    options?: RequestOptions,
  ): Promise<AgentCard> {
    return this.#calls.unary(
      { method: 'GetExtendedAgentCard', type: GetExtendedAgentCardRequest, params, options, attributes: {} },
      AgentCard.fromJSON,
    );
  }

  async sendMessage(params: SendMessageRequest, options?: RequestOptions): Promise<SendMessageResult> {
    const call = {
      method: 'SendMessage',
      type: SendMessageRequest,
      params,
      options,
      attributes: messageAttributes(params.message),
    } as const;
    return this.#calls.unary(
      call,
      (result) => {
        const response = SendMessageResponse.fromJSON(result);
        if (!response.payload) {
          throw new QueueBindingError('BAD_REPLY', {
            message: 'SendMessage reply has neither a task nor a message.',
          });
        }
        return response.payload.value;
      },
      resultAttributes,
    );
  }

  async *sendMessageStream(
    params: SendMessageRequest,
    options?: RequestOptions,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    yield* this.#calls.stream({
      method: 'SendStreamingMessage',
      type: SendMessageRequest,
      params,
      options,
      attributes: messageAttributes(params.message),
    });
  }

  async createTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    options?: RequestOptions,
  ): Promise<TaskPushNotificationConfig> {
    return this.#calls.unary(
      {
        method: 'CreateTaskPushNotificationConfig',
        type: TaskPushNotificationConfig,
        params,
        options,
        attributes: requestAttributes({ taskId: params.taskId }),
      },
      TaskPushNotificationConfig.fromJSON,
    );
  }

  async getTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
    options?: RequestOptions,
  ): Promise<TaskPushNotificationConfig> {
    return this.#calls.unary(
      {
        method: 'GetTaskPushNotificationConfig',
        type: GetTaskPushNotificationConfigRequest,
        params,
        options,
        attributes: requestAttributes({ taskId: params.taskId }),
      },
      TaskPushNotificationConfig.fromJSON,
    );
  }

  async listTaskPushNotificationConfig(
    params: ListTaskPushNotificationConfigsRequest,
    options?: RequestOptions,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    return this.#calls.unary(
      {
        method: 'ListTaskPushNotificationConfigs',
        type: ListTaskPushNotificationConfigsRequest,
        params,
        options,
        attributes: requestAttributes({ taskId: params.taskId }),
      },
      ListTaskPushNotificationConfigsResponse.fromJSON,
    );
  }

  async deleteTaskPushNotificationConfig(
    params: DeleteTaskPushNotificationConfigRequest,
    options?: RequestOptions,
  ): Promise<void> {
    await this.#calls.unary(
      {
        method: 'DeleteTaskPushNotificationConfig',
        type: DeleteTaskPushNotificationConfigRequest,
        params,
        options,
        attributes: requestAttributes({ taskId: params.taskId }),
      },
      () => undefined,
    );
  }

  async getTask(params: GetTaskRequest, options?: RequestOptions): Promise<Task> {
    return this.#calls.unary(
      {
        method: 'GetTask',
        type: GetTaskRequest,
        params,
        options,
        attributes: requestAttributes({ taskId: params.id }),
      },
      Task.fromJSON,
      resultAttributes,
    );
  }

  async cancelTask(params: CancelTaskRequest, options?: RequestOptions): Promise<Task> {
    return this.#calls.unary(
      {
        method: 'CancelTask',
        type: CancelTaskRequest,
        params,
        options,
        attributes: requestAttributes({ taskId: params.id }),
      },
      Task.fromJSON,
      resultAttributes,
    );
  }

  async listTasks(params: ListTasksRequest, options?: RequestOptions): Promise<ListTasksResponse> {
    return this.#calls.unary(
      { method: 'ListTasks', type: ListTasksRequest, params, options, attributes: {} },
      ListTasksResponse.fromJSON,
    );
  }

  async *resubscribeTask(
    params: SubscribeToTaskRequest,
    options?: RequestOptions,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    yield* this.#calls.stream({
      method: 'SubscribeToTask',
      type: SubscribeToTaskRequest,
      params,
      options,
      attributes: requestAttributes({ taskId: params.id }),
    });
  }
}
