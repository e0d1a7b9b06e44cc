import { createHash } from 'node:crypto';
import { type AgentCard, SendMessageResponse, StreamResponse, TaskState } from '@a2a-js/sdk';
import {
  type A2ARequestHandler,
  JsonRpcTransportHandler,
  ServerCallContext,
  UnauthenticatedUser,
  type User,
  validateVersion,
} from '@a2a-js/sdk/server';
import {
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { type Logger, stderrLogger } from '@switchboard/agent';
import { MESSAGING_OPERATION, messagingSpanName } from '@switchboard/semconv';
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { bearerUser, tokenVerifier } from '../auth/bearer-tokens.ts';
import { TASK_STARTED_HOOK, type TaskStartedHook } from '../executor/agent-executor.ts';
import {
  ERROR_TYPES,
  errorType,
  messagingAttributes,
  recordFailure,
} from '../observe/a2a-span-attributes.ts';
import { A2A_TRACER_NAME } from '../observe/tracer-name.ts';
import { BULLMQ_BINDING, type QueueAddress } from './binding.ts';
import { JobEnvelope } from './envelope.ts';
import { MessageDedup } from './message-dedup.ts';
import { errorResponse, ReplyWriter } from './reply-writer.ts';

/** Options of {@link A2aQueueServer}. */
export interface A2aQueueServerOptions {
  requestHandler: A2ARequestHandler;
  card: AgentCard;
  address: QueueAddress;
  /** For replies and dedup records; the worker opens its own blocking duplicate. */
  redis: Redis;
  /** Jobs processed at once by this process (default 50: agent runs mostly wait on models and tools). */
  concurrency?: number;
  /** Same as the HTTP app: token → user name. Requests with a wrong token are refused. */
  bearerTokens?: Readonly<Record<string, string>>;
  /** Larger requests are answered with an error, not run (default 1 MiB). */
  maxRequestBytes?: number;
  /** How long a job's lock lasts without renewal; a crashed worker's job is recovered after it (default 30 s). */
  lockDurationMs?: number;
  /** How often stalled jobs are looked for (default 30 s). */
  stalledIntervalMs?: number;
  /**
   * Runs the handling of one job inside the trace context its envelope carries. Default: the W3C
   * context restored with the global propagator (`propagation.extract`), so the job's
   * `process <queue>` span is a child of the caller's `send <queue>` span.
   */
  withTraceContext?: <T>(
    trace: Readonly<Record<string, string>> | undefined,
    run: () => Promise<T>,
  ) => Promise<T>;
  /**
   * Where the `process <queue>` spans go (default: the `@switchboard/a2a` tracer of the global
   * tracer provider, a no-op until an OpenTelemetry SDK is registered).
   */
  tracer?: Tracer;
  logger?: Logger;
}

const TERMINAL = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

type RpcRequest = {
  jsonrpc?: unknown;
  id?: string | number | null;
  method?: unknown;
  params?: Record<string, unknown>;
};

/** Runs `run` in the W3C context a job's envelope carries (none: a new trace). */
function restoreTraceContext<T>(
  carrier: Readonly<Record<string, string>> | undefined,
  run: () => Promise<T>,
): Promise<T> {
  // From the root, not the worker's ambient context: a job without a carrier starts its own trace.
  return context.with(propagation.extract(ROOT_CONTEXT, carrier ?? {}), run);
}

/** A stable conversation id for a message that starts one, in UUID form. */
function contextIdFor(messageId: string): string {
  const hex = createHash('sha256').update(`context:${messageId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The server side of the BullMQ binding: a BullMQ worker on the agent's queue that hands each job's
 * JSON-RPC request to the SDK's `JsonRpcTransportHandler` (the same request handler that serves HTTP)
 * and writes the reply frames to the caller's inbox. Malformed jobs are answered with the proper
 * JSON-RPC error when they can be, recorded as failed jobs when they cannot, and never stop the worker.
 *
 * Each job is a CONSUMER span `process <queue>` in the trace context its envelope carries; the
 * request handler's spans (`SendMessage`, … from `createHostedAgent`) are its children.
 */
export class A2aQueueServer {
  readonly #o: A2aQueueServerOptions;
  readonly #rpc: JsonRpcTransportHandler;
  readonly #dedup: MessageDedup;
  readonly #logger: Logger;
  readonly #verify: ((presented: string) => string | undefined) | undefined;
  readonly #tracer: Tracer;
  #worker: Worker | undefined;
  #workerRedis: Redis | undefined;

  constructor(options: A2aQueueServerOptions) {
    this.#o = options;
    this.#rpc = new JsonRpcTransportHandler(options.requestHandler);
    this.#dedup = new MessageDedup({ redis: options.redis, prefix: options.address.prefix });
    this.#logger = options.logger ?? stderrLogger();
    this.#verify = options.bearerTokens ? tokenVerifier(options.bearerTokens) : undefined;
    this.#tracer = options.tracer ?? trace.getTracer(A2A_TRACER_NAME);
  }

  /** Starts consuming; resolves when the worker is connected. */
  async start(): Promise<void> {
    if (this.#worker) return;
    const { address, concurrency = 50, lockDurationMs = 30_000, stalledIntervalMs = 30_000 } = this.#o;
    this.#workerRedis = this.#o.redis.duplicate({ maxRetriesPerRequest: null });
    this.#worker = new Worker(address.queue, (job) => this.#process(job), {
      connection: this.#workerRedis,
      prefix: address.prefix,
      concurrency,
      lockDuration: lockDurationMs,
      stalledInterval: stalledIntervalMs,
      maxStalledCount: 2,
    });
    this.#worker.on('error', (error) =>
      this.#logger.warn({ err: error, queue: address.queue }, 'queue worker error'),
    );
    await this.#worker.waitUntilReady();
  }

  /**
   * Stops fetching jobs, lets those in flight finish within `graceMs` (default 30 s), and closes the
   * worker's connection. Jobs still running after the grace period are recovered by another replica.
   */
  async close({ graceMs = 30_000 }: { graceMs?: number } = {}): Promise<{ drained: boolean }> {
    const worker = this.#worker;
    if (!worker) return { drained: true };
    this.#worker = undefined;
    let timer: NodeJS.Timeout | undefined;
    const drained = await Promise.race([
      worker.close().then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), graceMs);
      }),
    ]);
    clearTimeout(timer);
    if (!drained) {
      this.#logger.warn(
        { queue: this.#o.address.queue },
        'grace period over: in-flight jobs are left to another replica',
      );
      void worker.close(true).catch(() => {});
    }
    this.#workerRedis?.disconnect();
    return { drained };
  }

  async #process(job: Job): Promise<void> {
    const parsed = JobEnvelope.safeParse(job.data);
    if (!parsed.success) {
      const why = parsed.error.issues
        .map((issue) => `${issue.path.join('.') || 'job'}: ${issue.message}`)
        .join('; ');
      this.#logger.warn(
        { jobId: job.id, queue: job.queueName, why },
        'poison job: not an A2A envelope, no reply possible',
      );
      const span = this.#startProcess(job, ROOT_CONTEXT);
      recordFailure(
        span,
        ERROR_TYPES.invalidEnvelope,
        'The job is not a Switchboard A2A envelope: recorded as failed, not run, no reply sent.',
      );
      span.end();
      throw new UnrecoverableError(`Not a Switchboard A2A job envelope (${why}).`);
    }
    const envelope = parsed.data;
    const reply = new ReplyWriter(this.#o.redis, envelope.replyTo, envelope.requestId);
    const withTrace = this.#o.withTraceContext ?? restoreTraceContext;
    try {
      await withTrace(envelope.trace, async () => {
        const span = this.#startProcess(job, context.active());
        try {
          await context.with(trace.setSpan(context.active(), span), () => this.#serve(envelope, job, reply));
        } catch (error) {
          const type = errorType(error);
          recordFailure(span, type, `Handling the job failed: ${type}.`);
          throw error;
        } finally {
          span.end();
        }
      });
    } catch (error) {
      this.#logger.error({ err: error, jobId: job.id }, 'queue request failed');
      await reply.end(errorResponse(null, -32603, 'Internal error while handling the request.'));
    }
  }

  /** Opens the CONSUMER span `process <queue>` of a job. */
  #startProcess(job: Job, parent: Context): Span {
    return this.#tracer.startSpan(
      messagingSpanName({ operation: MESSAGING_OPERATION.process, queue: job.queueName }),
      {
        kind: SpanKind.CONSUMER,
        attributes: messagingAttributes(MESSAGING_OPERATION.process, job.queueName, job.id),
      },
      parent,
    );
  }

  async #serve(envelope: JobEnvelope, job: Job, reply: ReplyWriter): Promise<void> {
    const { maxRequestBytes = 1024 * 1024, card } = this.#o;
    if (Buffer.byteLength(envelope.request) > maxRequestBytes) {
      return reply.end(
        errorResponse(
          null,
          -32600,
          `Request is larger than ${maxRequestBytes} bytes; send a smaller message.`,
        ),
      );
    }
    let request: RpcRequest;
    try {
      request = JSON.parse(envelope.request) as RpcRequest;
    } catch {
      return reply.end(errorResponse(null, -32700, 'Parse error: the request is not valid JSON.'));
    }
    const id = typeof request === 'object' && request !== null ? (request.id ?? null) : null;
    const parameters = envelope.serviceParameters;
    const user = this.#authenticate(parameters.authorization);
    if (user === 'invalid') {
      return reply.end(
        errorResponse(id, -32600, 'Unauthenticated: the bearer token is missing or not valid.'),
      );
    }
    const requestedVersion = parameters['a2a-version'] || '0.3';
    try {
      validateVersion(requestedVersion, card, BULLMQ_BINDING);
    } catch (error) {
      return reply.end(
        JSON.stringify({ jsonrpc: '2.0', id, error: JsonRpcTransportHandler.mapToJSONRPCError(error) }),
      );
    }
    const extensions = (parameters['a2a-extensions'] ?? '')
      .split(',')
      .map((uri) => uri.trim())
      .filter(Boolean);
    const context = new ServerCallContext({ user, requestedVersion, requestedExtensions: extensions });

    if (request.method === 'SendMessage' || request.method === 'SendStreamingMessage') {
      const handled = await this.#deduplicate(request, job, context, reply);
      if (handled) return;
    }
    const out = await this.#rpc.handle(request as Record<string, unknown>, context);
    if (Symbol.asyncIterator in out) {
      for await (const item of out) await reply.item(JSON.stringify(item));
      return reply.end();
    }
    return reply.end(JSON.stringify(out));
  }

  /** True when the request was answered here (a duplicate, or a recovered job whose task is done). */
  async #deduplicate(
    request: RpcRequest,
    job: Job,
    context: ServerCallContext,
    reply: ReplyWriter,
  ): Promise<boolean> {
    const message = request.params?.message as
      | { messageId?: unknown; taskId?: unknown; contextId?: unknown }
      | undefined;
    if (!message || typeof message.messageId !== 'string' || !message.messageId || !job.id) return false;
    const messageId = message.messageId;
    // A recovered job must land in the same conversation, so a new one gets an id derived from the message.
    if (!message.contextId && !message.taskId) message.contextId = contextIdFor(messageId);
    const jobId = job.id;
    const claim = await this.#dedup.claim({ messageId, jobId });
    const hook: TaskStartedHook = ({ taskId, contextId }) =>
      this.#dedup.recordTask({ messageId, jobId, taskId, contextId });
    context.state.set(TASK_STARTED_HOOK, hook);
    if (claim.kind === 'new') return false;
    if (claim.kind === 'retry') {
      if (!claim.taskId) return false;
      const task = await this.#o.requestHandler
        .getTask({ tenant: '', id: claim.taskId }, context)
        .catch(() => undefined);
      if (!task) return false;
      if (task.status && TERMINAL.has(task.status.state)) {
        await this.#answerWithTask(request, task.id, context, reply);
        return true;
      }
      message.taskId = claim.taskId;
      this.#logger.info({ jobId, taskId: claim.taskId }, 'recovered job continues its task');
      return false;
    }
    let taskId = claim.taskId;
    for (let waited = 0; !taskId && waited < 10_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      taskId = (await this.#dedup.read(messageId))?.taskId;
    }
    if (!taskId) {
      await reply.end(
        errorResponse(
          request.id ?? null,
          -32603,
          `Message ${messageId} is already being handled by another request; read its task with GetTask once it has started.`,
        ),
      );
      return true;
    }
    await this.#answerWithTask(request, taskId, context, reply);
    return true;
  }

  /** Answers with the task a message already started, instead of running the message again. */
  async #answerWithTask(
    request: RpcRequest,
    taskId: string,
    context: ServerCallContext,
    reply: ReplyWriter,
  ): Promise<void> {
    const id = request.id ?? null;
    const handler = this.#o.requestHandler;
    const task = await handler.getTask({ tenant: '', id: taskId }, context);
    if (request.method === 'SendMessage') {
      const result = SendMessageResponse.toJSON({ payload: { $case: 'task', value: task } });
      return reply.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
    }
    const live = task.status && !TERMINAL.has(task.status.state);
    const events: AsyncIterable<StreamResponse> = live
      ? handler.resubscribe({ tenant: '', id: taskId }, context)
      : (async function* () {
          yield { payload: { $case: 'task' as const, value: task } };
        })();
    for await (const event of events) {
      await reply.item(JSON.stringify({ jsonrpc: '2.0', id, result: StreamResponse.toJSON(event) }));
    }
    return reply.end();
  }

  #authenticate(authorization: string | undefined): User | 'invalid' {
    if (!this.#verify) return new UnauthenticatedUser();
    return bearerUser(authorization, this.#verify) ?? 'invalid';
  }
}
