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
  SendMessageRequest,
  SendMessageResult,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from '@a2a-js/sdk';
import type { RequestOptions, Transport, TransportFactory } from '@a2a-js/sdk/client';
import { type Attributes, context, type Span, SpanKind, type Tracer, trace } from '@opentelemetry/api';
import { A2A, type A2aMethod, a2aSpanName, COMMON } from '@switchboard/semconv';
import {
  messageAttributes,
  recordCallFailure,
  requestAttributes,
  resultAttributes,
} from './a2a-span-attributes.ts';
import { costAttributesOf } from './cost-attributes.ts';
import { tracedStream } from './traced-stream.ts';
import { A2A_TRACER_NAME } from './tracer-name.ts';

/** Options of {@link tracedTransportFactory}. */
export interface TracedTransportFactoryOptions {
  /** The factory whose transports are traced, e.g. the SDK's `JsonRpcTransportFactory`. */
  factory: TransportFactory;
  /**
   * Where the spans go (default: the `@switchboard/a2a` tracer of the global tracer provider, a
   * no-op until an OpenTelemetry SDK is registered).
   */
  tracer?: Tracer;
}

/**
 * Wraps an SDK transport factory so that each A2A call of its transports is a CLIENT span named
 * after the method (`SendMessage`, `GetTask`, …) with the `a2a.*` attributes, `server.address` and
 * `server.port` of the agent's interface, active while the call runs: a request sent inside it
 * carries it as the parent (when the sender injects the active context). A streaming call's span
 * lasts until the stream ends. Not for the BullMQ binding, whose transport traces itself.
 *
 * @example
 * const factory = new ClientFactory({
 *   transports: [tracedTransportFactory({ factory: new JsonRpcTransportFactory({ fetchImpl }) })],
 * });
 */
export function tracedTransportFactory({
  factory,
  tracer = trace.getTracer(A2A_TRACER_NAME),
}: TracedTransportFactoryOptions): TransportFactory {
  return {
    get protocolName() {
      return factory.protocolName;
    },
    create: async (url, card) => new TracedTransport({ inner: await factory.create(url, card), url, tracer }),
  };
}

class TracedTransport implements Transport {
  readonly #inner: Transport;
  readonly #tracer: Tracer;
  readonly #server: Attributes;

  constructor({ inner, url, tracer }: { inner: Transport; url: string; tracer: Tracer }) {
    this.#inner = inner;
    this.#tracer = tracer;
    this.#server = serverAttributes(url);
  }

  get protocolName(): string {
    return this.#inner.protocolName;
  }

  get protocolVersion(): string {
    return this.#inner.protocolVersion;
  }

  getExtendedAgentCard(params: GetExtendedAgentCardRequest, options?: RequestOptions): Promise<AgentCard> {
    return this.#unary('GetExtendedAgentCard', {}, () => this.#inner.getExtendedAgentCard(params, options));
  }

  sendMessage(params: SendMessageRequest, options?: RequestOptions): Promise<SendMessageResult> {
    return this.#unary(
      'SendMessage',
      { ...requestAttributes({ tenant: params.tenant }), ...messageAttributes(params.message) },
      () => this.#inner.sendMessage(params, options),
      (result) => ({ ...resultAttributes(result), ...costAttributesOf(result) }),
    );
  }

  sendMessageStream(
    params: SendMessageRequest,
    options?: RequestOptions,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    return this.#stream(
      'SendStreamingMessage',
      { ...requestAttributes({ tenant: params.tenant }), ...messageAttributes(params.message) },
      () => this.#inner.sendMessageStream(params, options),
    );
  }

  createTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    options?: RequestOptions,
  ): Promise<TaskPushNotificationConfig> {
    return this.#unary('CreateTaskPushNotificationConfig', requestAttributes(params), () =>
      this.#inner.createTaskPushNotificationConfig(params, options),
    );
  }

  getTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
    options?: RequestOptions,
  ): Promise<TaskPushNotificationConfig> {
    return this.#unary('GetTaskPushNotificationConfig', requestAttributes(params), () =>
      this.#inner.getTaskPushNotificationConfig(params, options),
    );
  }

  listTaskPushNotificationConfig(
    params: ListTaskPushNotificationConfigsRequest,
    options?: RequestOptions,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    return this.#unary('ListTaskPushNotificationConfigs', requestAttributes(params), () =>
      this.#inner.listTaskPushNotificationConfig(params, options),
    );
  }

  deleteTaskPushNotificationConfig(
    params: DeleteTaskPushNotificationConfigRequest,
    options?: RequestOptions,
  ): Promise<void> {
    return this.#unary('DeleteTaskPushNotificationConfig', requestAttributes(params), () =>
      this.#inner.deleteTaskPushNotificationConfig(params, options),
    );
  }

  getTask(params: GetTaskRequest, options?: RequestOptions): Promise<Task> {
    return this.#unary(
      'GetTask',
      requestAttributes({ taskId: params.id, tenant: params.tenant }),
      () => this.#inner.getTask(params, options),
      resultAttributes,
    );
  }

  cancelTask(params: CancelTaskRequest, options?: RequestOptions): Promise<Task> {
    return this.#unary(
      'CancelTask',
      requestAttributes({ taskId: params.id, tenant: params.tenant }),
      () => this.#inner.cancelTask(params, options),
      resultAttributes,
    );
  }

  listTasks(params: ListTasksRequest, options?: RequestOptions): Promise<ListTasksResponse> {
    return this.#unary('ListTasks', requestAttributes({ tenant: params.tenant }), () =>
      this.#inner.listTasks(params, options),
    );
  }

  resubscribeTask(
    params: SubscribeToTaskRequest,
    options?: RequestOptions,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    return this.#stream(
      'SubscribeToTask',
      requestAttributes({ taskId: params.id, tenant: params.tenant }),
      () => this.#inner.resubscribeTask(params, options),
    );
  }

  #start(method: A2aMethod, attributes: Attributes): Span {
    return this.#tracer.startSpan(a2aSpanName({ method }), {
      kind: SpanKind.CLIENT,
      attributes: {
        [A2A.method]: method,
        [A2A.protocolVersion]: this.#inner.protocolVersion,
        ...this.#server,
        ...attributes,
      },
    });
  }

  async #unary<R>(
    method: A2aMethod,
    attributes: Attributes,
    call: () => Promise<R>,
    describe?: (result: R) => Attributes,
  ): Promise<R> {
    const span = this.#start(method, attributes);
    try {
      const result = await context.with(trace.setSpan(context.active(), span), call);
      if (describe) span.setAttributes(describe(result));
      return result;
    } catch (error) {
      recordCallFailure(span, method, error);
      throw error;
    } finally {
      span.end();
    }
  }

  /** The span opens when the stream is first read, as the request goes out. */
  async *#stream(
    method: A2aMethod,
    attributes: Attributes,
    open: () => AsyncGenerator<StreamResponse, void, undefined>,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const span = this.#start(method, attributes);
    yield* tracedStream({ span, active: trace.setSpan(context.active(), span), method, open });
  }
}

/** `server.address` and `server.port` of the interface URL the transport talks to. */
function serverAttributes(url: string): Attributes {
  try {
    const { hostname, port, protocol } = new URL(url);
    const number = Number(port || (protocol === 'https:' ? 443 : 80));
    return { [COMMON.serverAddress]: hostname.replace(/^\[|\]$/g, ''), [COMMON.serverPort]: number };
  } catch {
    return {};
  }
}
