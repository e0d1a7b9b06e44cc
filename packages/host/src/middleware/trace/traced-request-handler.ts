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
import { type A2ARequestHandler, type ServerCallContext, STATE_HEADERS_KEY } from '@a2a-js/sdk/server';
import {
  type Attributes,
  type Context,
  context,
  propagation,
  SpanKind,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import {
  A2A_TRACER_NAME,
  costAttributesOf,
  messageAttributes,
  recordCallFailure,
  requestAttributes,
  resultAttributes,
  tracedStream,
} from '@switchboard/delegate/observe';
import { callVariable } from '@switchboard/protocol';
import { A2A, type A2aMethod, a2aSpanName, GEN_AI } from '@switchboard/semconv';
import { HostError } from '../../errors.ts';

/** Options of {@link tracedRequestHandler}. */
export interface TracedRequestHandlerOptions {
  /** The served agent's name (its card's), recorded as `gen_ai.agent.name`. */
  agentName: string;
  /**
   * Where the spans go (default: the `@switchboard/a2a` tracer of the global tracer provider, a
   * no-op until an OpenTelemetry SDK is registered).
   */
  tracer?: Tracer;
}

/**
 * Wraps an A2A request handler so each call is one SERVER span named after its A2A method
 * (`SendMessage`, `GetTask`, …) with `a2a.*` attributes: method, message, task and context ids, the
 * task's final state, the requested protocol version, and `gen_ai.conversation.id` = the contextId.
 * The span is active while the wrapped handler runs, so the agent executor that `sendMessage`
 * starts (and its `invoke_agent` span) is its child; a streaming call's span lasts until the stream
 * ends. A failed call sets `error.type` (e.g. `TaskNotFoundError`) and a status message of ours.
 *
 * Its parent is the active span (the queue's `process` span, or an HTTP server span); with none,
 * a caller's `traceparent` header is continued. `createAgentHandler` applies it already.
 *
 * @example
 * const requestHandler = tracedRequestHandler(new DefaultRequestHandler(card, store, executor), { agentName: card.name });
 */
export function tracedRequestHandler(
  handler: A2ARequestHandler,
  { agentName, tracer = trace.getTracer(A2A_TRACER_NAME) }: TracedRequestHandlerOptions,
): A2ARequestHandler {
  const problems: string[] = [];
  if (typeof handler?.sendMessage !== 'function') {
    problems.push('handler must be an A2A request handler, e.g. new DefaultRequestHandler(...)');
  }
  if (typeof agentName !== 'string' || !agentName) problems.push('agentName must be the agent card name');
  if (typeof tracer?.startSpan !== 'function') {
    problems.push("tracer must be an OpenTelemetry Tracer, e.g. trace.getTracer('my-service')");
  }
  if (problems.length > 0) {
    throw new HostError('INVALID_OPTIONS', {
      message: `tracedRequestHandler options are not valid: ${problems.join('; ')}.`,
    });
  }
  return new TracedRequestHandler(handler, agentName, tracer);
}

class TracedRequestHandler implements A2ARequestHandler {
  readonly #inner: A2ARequestHandler;
  readonly #agentName: string;
  readonly #tracer: Tracer;

  constructor(inner: A2ARequestHandler, agentName: string, tracer: Tracer) {
    this.#inner = inner;
    this.#agentName = agentName;
    this.#tracer = tracer;
  }

  getAgentCard(): Promise<AgentCard> {
    return this.#inner.getAgentCard();
  }

  getAuthenticatedExtendedAgentCard(
    params: GetExtendedAgentCardRequest,
    call: ServerCallContext,
  ): Promise<AgentCard> {
    return this.#unary('GetExtendedAgentCard', call, params, {}, () =>
      this.#inner.getAuthenticatedExtendedAgentCard(params, call),
    );
  }

  sendMessage(params: SendMessageRequest, call: ServerCallContext): Promise<Message | Task> {
    return this.#unary(
      'SendMessage',
      call,
      params,
      messageAttributes(params.message),
      () => this.#inner.sendMessage(params, call),
      (result) => ({ ...resultAttributes(result), ...costAttributesOf(result) }),
    );
  }

  sendMessageStream(
    params: SendMessageRequest,
    call: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    return this.#stream('SendStreamingMessage', call, params, messageAttributes(params.message), () =>
      this.#inner.sendMessageStream(params, call),
    );
  }

  getTask(params: GetTaskRequest, call: ServerCallContext): Promise<Task> {
    return this.#unary(
      'GetTask',
      call,
      params,
      requestAttributes({ taskId: params.id }),
      () => this.#inner.getTask(params, call),
      resultAttributes,
    );
  }

  cancelTask(params: CancelTaskRequest, call: ServerCallContext): Promise<Task> {
    return this.#unary(
      'CancelTask',
      call,
      params,
      requestAttributes({ taskId: params.id }),
      () => this.#inner.cancelTask(params, call),
      resultAttributes,
    );
  }

  listTasks(params: ListTasksRequest, call: ServerCallContext): Promise<ListTasksResponse> {
    return this.#unary('ListTasks', call, params, {}, () => this.#inner.listTasks(params, call));
  }

  resubscribe(
    params: SubscribeToTaskRequest,
    call: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    return this.#stream('SubscribeToTask', call, params, requestAttributes({ taskId: params.id }), () =>
      this.#inner.resubscribe(params, call),
    );
  }

  createTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    call: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return this.#unary('CreateTaskPushNotificationConfig', call, params, {}, () =>
      this.#inner.createTaskPushNotificationConfig(params, call),
    );
  }

  getTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
    call: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return this.#unary('GetTaskPushNotificationConfig', call, params, {}, () =>
      this.#inner.getTaskPushNotificationConfig(params, call),
    );
  }

  listTaskPushNotificationConfigs(
    params: ListTaskPushNotificationConfigsRequest,
    call: ServerCallContext,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    return this.#unary('ListTaskPushNotificationConfigs', call, params, {}, () =>
      this.#inner.listTaskPushNotificationConfigs(params, call),
    );
  }

  deleteTaskPushNotificationConfig(
    params: DeleteTaskPushNotificationConfigRequest,
    call: ServerCallContext,
  ): Promise<void> {
    return this.#unary('DeleteTaskPushNotificationConfig', call, params, {}, () =>
      this.#inner.deleteTaskPushNotificationConfig(params, call),
    );
  }

  /** The attributes every SERVER span starts with, plus the request's own. */
  #startAttributes(
    method: A2aMethod,
    call: ServerCallContext,
    params: { tenant: string; taskId?: string },
    own: Attributes,
  ): Attributes {
    return {
      [A2A.method]: method,
      [A2A.protocolVersion]: call.requestedVersion,
      [GEN_AI.agentName]: this.#agentName,
      ...requestAttributes({ taskId: params.taskId, tenant: params.tenant || call.tenant }),
      ...own,
    };
  }

  async #unary<T>(
    method: A2aMethod,
    call: ServerCallContext,
    params: { tenant: string; taskId?: string },
    own: Attributes,
    run: () => Promise<T>,
    describe?: (result: T) => Attributes,
  ): Promise<T> {
    const parent = parentOf(call);
    const span = this.#tracer.startSpan(
      a2aSpanName({ method }),
      { kind: SpanKind.SERVER, attributes: this.#startAttributes(method, call, params, own) },
      parent,
    );
    try {
      const result = await context.with(trace.setSpan(parent, span), run);
      if (describe) span.setAttributes(describe(result));
      return result;
    } catch (error) {
      recordCallFailure(span, method, error);
      throw error;
    } finally {
      span.end();
    }
  }

  #stream(
    method: A2aMethod,
    call: ServerCallContext,
    params: { tenant: string; taskId?: string },
    own: Attributes,
    open: () => AsyncGenerator<StreamResponse, void, undefined>,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    // The parent is the context of the call; the span opens when the stream is first read.
    return this.#traceStream(method, parentOf(call), this.#startAttributes(method, call, params, own), open);
  }

  async *#traceStream(
    method: A2aMethod,
    parent: Context,
    attributes: Attributes,
    open: () => AsyncGenerator<StreamResponse, void, undefined>,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const span = this.#tracer.startSpan(
      a2aSpanName({ method }),
      { kind: SpanKind.SERVER, attributes },
      parent,
    );
    // The SDK starts the executor in the stream's first step, which runs with the span active.
    yield* tracedStream({ span, active: trace.setSpan(parent, span), method, open });
  }
}

/**
 * The parent of a SERVER span: the active context when it has a span (the queue's `process` span,
 * an HTTP server span); else the caller's W3C context from the request headers, when there are any.
 */
function parentOf(call: ServerCallContext): Context {
  const active = context.active();
  if (trace.getSpan(active)) return active;
  const headers = callVariable(call, STATE_HEADERS_KEY);
  return headers && typeof headers === 'object' ? propagation.extract(active, headers) : active;
}
