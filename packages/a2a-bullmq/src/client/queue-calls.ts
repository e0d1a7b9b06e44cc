import { randomUUID } from 'node:crypto';
import { type MessageFns, StreamResponse } from '@a2a-js/sdk';
import type { ClientCallContext, RequestOptions } from '@a2a-js/sdk/client';
import { fromJsonRpcErrorResponse } from '@a2a-js/sdk/errors';
import {
  type Attributes,
  type Context,
  context,
  propagation,
  type Span,
  SpanKind,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import {
  A2A,
  type A2aMethod,
  a2aSpanName,
  MESSAGING_OPERATION,
  messagingSpanName,
} from '@switchboard/semconv';
import type { Queue } from 'bullmq';
import { QueueBindingError } from '../errors.ts';
import {
  errorType,
  messagingAttributes,
  recordCallFailure,
  recordFailure,
  requestAttributes,
  streamEventAttributes,
} from '../observe/span-attributes.ts';
import { QUEUE_TRACER_NAME } from '../observe/tracer-name.ts';
import { DEFAULT_MAX_REQUEST_BYTES, type JobEnvelope } from '../wire/envelope.ts';
import { beforeDeadline, type DeadlineOutcome } from './deadline.ts';
import type { ReplyInbox, ReplySubscription } from './reply-inbox.ts';

/** The A2A protocol version the binding speaks. */
export const PROTOCOL_VERSION = '1.0';

/**
 * A call about to be enqueued, as a {@link ServiceParametersHook} sees it: the exact request text
 * the envelope will carry, and the service parameters the caller gave (lower-case names).
 */
export interface OutgoingRequest {
  /** The agent the call goes to: the name on the card the transport was made for. */
  readonly agent: string;
  /** The agent's queue. */
  readonly queue: string;
  /** The A2A method (`SendStreamingMessage`, `GetTask`, …). */
  readonly method: A2aMethod;
  /** The JSON-RPC request text, byte for byte what the envelope's `request` will hold. */
  readonly request: string;
  /** The call's service parameters, names lower-case. */
  readonly serviceParameters: Readonly<Record<string, string>>;
  /** The call's `RequestOptions.context`: per-call data for the hook, never sent. */
  readonly context: ClientCallContext | undefined;
}

/**
 * Decides the service parameters of each call from its exact request text, just before the job is
 * added: e.g. to sign the request and send the signature as `authorization`, so a job read from
 * Redis carries nothing that could be attached to another request. Its result replaces the call's
 * service parameters (names are lower-cased); when it throws, the call fails and nothing is sent.
 */
export type ServiceParametersHook = (
  outgoing: OutgoingRequest,
) => Record<string, string> | Promise<Record<string, string>>;

/** Options of {@link QueueCalls}. */
export interface QueueCallsOptions {
  queue: Queue;
  inbox: ReplyInbox;
  /** The agent's name, for {@link ServiceParametersHook} (default: the queue's name). */
  agent?: string;
  /** Decides each call's service parameters from its exact request text (default: as given). */
  serviceParameters?: ServiceParametersHook | undefined;
  /**
   * Longest wait for Redis to take the job, then for a unary reply, or between two frames of a
   * stream (default 120 s).
   */
  timeoutMs?: number;
  /** Requests larger than this are refused before they are sent (default 256 KiB, `DEFAULT_MAX_REQUEST_BYTES`). */
  maxRequestBytes?: number;
  /** Fills the envelope's trace slot (default: the W3C context of the `send` span). */
  injectTrace?: (() => Record<string, string>) | undefined;
  tracer?: Tracer;
}

/** One A2A call through the queue. */
export interface Call<P extends { tenant: string }> {
  method: A2aMethod;
  type: MessageFns<P>;
  params: P;
  options: RequestOptions | undefined;
  /** What the request tells about the call (message, task, tenant), for its CLIENT span. */
  attributes: Attributes;
}

type JsonRpcResponse = { jsonrpc: '2.0'; id: string | number | null; result?: unknown; error?: unknown };

/**
 * Sends A2A calls as jobs on one agent's queue and reads their replies from the inbox: one job per
 * call, under a CLIENT span named after the method and a PRODUCER span `send <queue>`.
 */
export class QueueCalls {
  readonly #queue: Queue;
  readonly #inbox: ReplyInbox;
  readonly #timeoutMs: number;
  readonly #maxRequestBytes: number;
  readonly #injectTrace: (() => Record<string, string>) | undefined;
  readonly #tracer: Tracer;
  readonly #agent: string;
  readonly #serviceParameters: ServiceParametersHook | undefined;

  constructor({
    queue,
    inbox,
    agent,
    serviceParameters,
    timeoutMs = 120_000,
    maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES,
    injectTrace,
    tracer = trace.getTracer(QUEUE_TRACER_NAME),
  }: QueueCallsOptions) {
    this.#queue = queue;
    this.#inbox = inbox;
    this.#timeoutMs = timeoutMs;
    this.#maxRequestBytes = maxRequestBytes;
    this.#injectTrace = injectTrace;
    this.#tracer = tracer;
    this.#agent = agent ?? queue.name;
    this.#serviceParameters = serviceParameters;
  }

  /** Opens the CLIENT span of a call, a child of the active span. */
  #startCall<P extends { tenant: string }>(call: Call<P>): { span: Span; active: Context } {
    const parent = context.active();
    const span = this.#tracer.startSpan(
      a2aSpanName({ method: call.method }),
      {
        kind: SpanKind.CLIENT,
        attributes: {
          [A2A.method]: call.method,
          [A2A.protocolVersion]: requestedVersion(call.options) ?? PROTOCOL_VERSION,
          ...requestAttributes({ tenant: call.params.tenant }),
          ...call.attributes,
        },
      },
      parent,
    );
    return { span, active: trace.setSpan(parent, span) };
  }

  /**
   * One call answered by one `end` frame: its result read with `decode`, and what `describe` says of
   * it recorded on the call's span. A JSON-RPC error becomes the SDK's error class, as over HTTP.
   */
  async unary<P extends { tenant: string }, R>(
    call: Call<P>,
    decode: (result: unknown) => R,
    describe?: (result: R) => Attributes,
  ): Promise<R> {
    const { span, active } = this.#startCall(call);
    try {
      return await context.with(active, async () => {
        const { subscription, jobId } = await this.#send(call);
        try {
          const frame = await this.#await(subscription, jobId, call.options?.signal);
          const result = decode(readResult(frame.body, call.method));
          if (describe) span.setAttributes(describe(result));
          return result;
        } finally {
          subscription.close();
        }
      });
    } catch (error) {
      recordCallFailure(span, call.method, error);
      throw error;
    } finally {
      span.end();
    }
  }

  /** One streaming call: each `item` frame's event, in order, until the `end` frame. */
  async *stream<P extends { tenant: string }>(
    call: Call<P>,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const { span, active } = this.#startCall(call);
    try {
      const { subscription, jobId } = await context.with(active, () => this.#send(call));
      try {
        while (true) {
          const frame = await this.#await(subscription, jobId, call.options?.signal);
          if (frame.body !== undefined) {
            const event = StreamResponse.fromJSON(readResult(frame.body, call.method));
            span.setAttributes(streamEventAttributes(event));
            yield event;
          }
          if (frame.kind === 'end') return;
        }
      } finally {
        subscription.close();
      }
    } catch (error) {
      recordCallFailure(span, call.method, error);
      throw error;
    } finally {
      span.end();
    }
  }

  /**
   * The next reply frame. When none comes (timeout, or the caller gave up), the job is withdrawn if
   * no worker has taken it yet, so a request nobody waits for does not run later; a taken job is
   * the worker's to finish or to cancel.
   */
  async #await(subscription: ReplySubscription, jobId: string, signal: AbortSignal | undefined) {
    try {
      return await subscription.next({ timeoutMs: this.#timeoutMs, signal });
    } catch (error) {
      await this.#queue.remove(jobId).catch(() => 0);
      throw error;
    }
  }

  /** Enqueues the call under a PRODUCER span `send <queue>`, whose context the envelope carries. */
  async #send<P extends { tenant: string }>({
    method,
    type,
    params,
    options,
  }: Call<P>): Promise<{ subscription: ReplySubscription; jobId: string }> {
    const requestId = randomUUID();
    const request = JSON.stringify({ jsonrpc: '2.0', id: requestId, method, params: type.toJSON(params) });
    if (Buffer.byteLength(request) > this.#maxRequestBytes) {
      throw new QueueBindingError('INVALID_OPTIONS', {
        message: `The ${method} request is ${Buffer.byteLength(request)} bytes, over the ${this.#maxRequestBytes}-byte limit of this binding; send large content by URL.`,
      });
    }
    const queueName = this.#queue.name;
    const given = lowerCaseNames(options?.serviceParameters ?? {});
    const serviceParameters = this.#serviceParameters
      ? lowerCaseNames(
          await this.#serviceParameters({
            agent: this.#agent,
            queue: queueName,
            method,
            request,
            serviceParameters: given,
            context: options?.context,
          }),
        )
      : given;
    const span = this.#tracer.startSpan(
      messagingSpanName({ operation: MESSAGING_OPERATION.send, queue: queueName }),
      {
        kind: SpanKind.PRODUCER,
        attributes: messagingAttributes(MESSAGING_OPERATION.send, queueName, requestId),
      },
    );
    const sending = trace.setSpan(context.active(), span);
    try {
      const traceSlot = context.with(sending, () => this.#traceSlot());
      const envelope: JobEnvelope = {
        v: 1,
        requestId,
        replyTo: this.#inbox.key,
        serviceParameters,
        request,
        ...(traceSlot ? { trace: traceSlot } : {}),
      };
      const subscription = this.#inbox.open(requestId);
      // While Redis is unreachable the connection queues the command without bound: the call's
      // timeout (and its signal) bound the enqueue as they bound the wait for the reply.
      const adding = context.with(sending, () => this.#queue.add(method, envelope, { jobId: requestId }));
      let outcome: DeadlineOutcome<unknown>;
      try {
        outcome = await beforeDeadline(adding, { ms: this.#timeoutMs, signal: options?.signal });
      } catch (error) {
        subscription.close();
        const refused = new QueueBindingError('REDIS_UNAVAILABLE', {
          message: `Could not enqueue ${method}: Redis did not accept the job.`,
          cause: error,
        });
        recordFailure(span, errorType(refused), refused.message);
        throw refused;
      }
      if (!outcome.done) {
        subscription.close();
        // Redis may still take the job once it is back: withdraw it then, unless a worker has it.
        adding.then(() => this.#queue.remove(requestId)).catch(() => 0);
        if (outcome.reason === 'aborted') throw options?.signal?.reason;
        const late = new QueueBindingError('REDIS_UNAVAILABLE', {
          message: `Could not enqueue ${method}: Redis did not take the job within ${this.#timeoutMs} ms; check that Redis is reachable. If Redis takes it later, it is withdrawn unless a worker has already started it.`,
        });
        recordFailure(span, errorType(late), late.message);
        throw late;
      }
      return { subscription, jobId: requestId };
    } finally {
      span.end();
    }
  }

  /** The envelope's trace slot: the override's, or the active context through the global propagator. */
  #traceSlot(): Record<string, string> | undefined {
    if (this.#injectTrace) return this.#injectTrace();
    const carrier: Record<string, string> = {};
    propagation.inject(context.active(), carrier);
    return Object.keys(carrier).length > 0 ? carrier : undefined;
  }
}

/** Service parameters with lower-case names, as the envelope carries them. */
function lowerCaseNames(parameters: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(parameters).map(([name, value]) => [name.toLowerCase(), value]));
}

/** The `A2A-Version` service parameter of a call, whatever its spelling. */
function requestedVersion(options: RequestOptions | undefined): string | undefined {
  const entry = Object.entries(options?.serviceParameters ?? {}).find(
    ([name]) => name.toLowerCase() === 'a2a-version',
  );
  return entry?.[1] || undefined;
}

function readResult(body: string | undefined, method: string): unknown {
  let response: JsonRpcResponse;
  try {
    response = JSON.parse(body ?? '') as JsonRpcResponse;
  } catch (error) {
    throw new QueueBindingError('BAD_REPLY', {
      message: `The reply to ${method} is not JSON.`,
      cause: error,
    });
  }
  if (response.error !== undefined) {
    throw fromJsonRpcErrorResponse(response as Parameters<typeof fromJsonRpcErrorResponse>[0]);
  }
  return response.result ?? null;
}
