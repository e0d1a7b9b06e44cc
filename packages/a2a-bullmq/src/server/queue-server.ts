import type { AgentCard } from '@a2a-js/sdk';
import { type A2ARequestHandler, JsonRpcTransportHandler, UnauthenticatedUser } from '@a2a-js/sdk/server';
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
import { duplicateConnection, type RedisConnection } from '@switchboard/redis';
import { MESSAGING_OPERATION, messagingSpanName } from '@switchboard/semconv';
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import { QueueBindingError } from '../errors.ts';
import { type QueueLogger, stderrLogger } from '../logger.ts';
import {
  errorType,
  INVALID_ENVELOPE,
  messagingAttributes,
  recordFailure,
} from '../observe/span-attributes.ts';
import { QUEUE_TRACER_NAME } from '../observe/tracer-name.ts';
import { DEFAULT_MAX_REQUEST_BYTES, readEnvelope } from '../wire/envelope.ts';
import type { QueueAddress } from '../wire/queue-url.ts';
import { JobDelivery } from './delivery.ts';
import { errorResponse, ReplyWriter } from './reply-writer.ts';
import { type QueueAuthenticator, serveRequest } from './serve-request.ts';
import { reportUnexpectedError } from './unexpected-error.ts';

/** How long `close` waits for BullMQ's own close (its QUIT) once no job is running. */
const QUIT_WAIT_MS = 2_000;

/** Options of {@link A2aQueueServer}. */
export interface A2aQueueServerOptions {
  /**
   * What serves the requests: the SDK's `DefaultRequestHandler`, or any `A2ARequestHandler`, e.g.
   * one wrapped in a delivery policy that reads `queueDeliveryOf`. The same handler can serve
   * HTTP too.
   */
  requestHandler: A2ARequestHandler;
  /** The agent's v1.0 card: the protocol versions its BullMQ interfaces list are the ones served. */
  card: AgentCard;
  address: QueueAddress;
  /** For replies; the worker opens its own blocking duplicate. */
  redis: RedisConnection;
  /** Jobs processed at once by this process (default 50: agent runs mostly wait on models and tools). */
  concurrency?: number;
  /**
   * Who sent each request, from its service parameters, its exact request text and its job id (for
   * credentials bound to one request and used once); a request it returns no user for is refused
   * with `-32600` "Unauthenticated". Default: every request is served, as the SDK's
   * `UnauthenticatedUser`.
   *
   * @example
   * authenticate: ({ serviceParameters }) => usersByToken.get(serviceParameters.authorization ?? '')
   */
  authenticate?: QueueAuthenticator;
  /** Larger requests are answered with an error, not run (default 256 KiB, `DEFAULT_MAX_REQUEST_BYTES`). */
  maxRequestBytes?: number;
  /**
   * Looks at each request as it arrived (parsed JSON) before the SDK reads it, e.g. for what the
   * SDK's reader would coerce; an `A2AError` it throws is the reply, as the SDK's own errors are.
   * Default: none.
   */
  inspectRequest?: (request: unknown) => void;
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
   * Where the `process <queue>` spans go (default: the `@switchboard/a2a-bullmq` tracer of the
   * global tracer provider, a no-op until an OpenTelemetry SDK is registered).
   */
  tracer?: Tracer;
  /** Where worker errors and poison jobs are reported (default: stderr, as JSON lines). */
  logger?: QueueLogger;
}

/** Runs `run` in the W3C context a job's envelope carries (none: a new trace). */
function restoreTraceContext<T>(
  carrier: Readonly<Record<string, string>> | undefined,
  run: () => Promise<T>,
): Promise<T> {
  // From the root, not the worker's ambient context: a job without a carrier starts its own trace.
  return context.with(propagation.extract(ROOT_CONTEXT, carrier ?? {}), run);
}

const serveEveryone: QueueAuthenticator = () => new UnauthenticatedUser();

/** What is wrong with the options, each with how to fix it; empty when they are valid. */
function problemsOf(options: A2aQueueServerOptions): string[] {
  const problems: string[] = [];
  if (typeof options?.requestHandler?.sendMessage !== 'function') {
    problems.push(
      'requestHandler must be an A2A request handler, e.g. new DefaultRequestHandler(card, store, executor)',
    );
  }
  if (!Array.isArray(options?.card?.supportedInterfaces)) {
    problems.push('card must be a v1.0 AgentCard whose supportedInterfaces list this queue');
  }
  if (!options?.address?.queue || !options.address.prefix) {
    problems.push("address must name the queue and its prefix, e.g. defaultQueueAddress('orders')");
  }
  if (typeof options?.redis?.duplicate !== 'function')
    problems.push(
      'redis must be an ioredis connection (Redis or Cluster), e.g. createRedisConnection({ url })',
    );
  return problems;
}

/**
 * The server side of the BullMQ binding: a BullMQ worker on the agent's queue that hands each job's
 * JSON-RPC request to the SDK's `JsonRpcTransportHandler` (the same request handler that serves HTTP)
 * and writes the reply frames to the caller's inbox. Malformed jobs are answered with the proper
 * JSON-RPC error when they can be, recorded as failed jobs when they cannot, and never stop the worker.
 *
 * Delivery is at least once (a crashed worker's job runs again elsewhere). Each request's
 * `ServerCallContext` says which job brought it (`queueDeliveryOf`), so a request handler
 * decorator can apply a delivery policy, such as running each message once.
 *
 * Each job is a CONSUMER span `process <queue>` in the trace context its envelope carries; the
 * request handler's spans are its children.
 *
 * @example
 * const server = new A2aQueueServer({
 *   requestHandler: new DefaultRequestHandler(card, new InMemoryTaskStore(), executor),
 *   card,
 *   address: defaultQueueAddress('echo'),
 *   redis,
 * });
 * await server.start();
 */
export class A2aQueueServer {
  readonly #o: A2aQueueServerOptions;
  readonly #rpc: JsonRpcTransportHandler;
  readonly #logger: QueueLogger;
  readonly #tracer: Tracer;
  #worker: Worker | undefined;
  #workerRedis: RedisConnection | undefined;
  /** Jobs being served now, and who waits for there to be none (`close`). */
  #running = 0;
  #whenIdle: (() => void)[] = [];

  constructor(options: A2aQueueServerOptions) {
    const problems = problemsOf(options);
    if (problems.length > 0) {
      throw new QueueBindingError('INVALID_OPTIONS', {
        message: `A2aQueueServer options are not valid: ${problems.join('; ')}.`,
      });
    }
    this.#o = options;
    this.#rpc = new JsonRpcTransportHandler(options.requestHandler);
    this.#logger = options.logger ?? stderrLogger();
    this.#tracer = options.tracer ?? trace.getTracer(QUEUE_TRACER_NAME);
  }

  /** Starts consuming; resolves when the worker is connected. */
  async start(): Promise<void> {
    if (this.#worker) return;
    const { address, concurrency = 50, lockDurationMs = 30_000, stalledIntervalMs = 30_000 } = this.#o;
    this.#workerRedis = duplicateConnection(this.#o.redis);
    this.#worker = new Worker(address.queue, (job) => this.#serve(job), {
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
    const timers: NodeJS.Timeout[] = [];
    const after = <T>(ms: number, value: T) =>
      new Promise<T>((resolve) => timers.push(setTimeout(() => resolve(value), ms)));
    const closing = worker.close().then(() => 'closed' as const);
    // BullMQ's close ends with QUIT on the worker's blocking connection, which can wait forever on a
    // cluster connection that lived through a failover: once no job is running, it gets a moment, and
    // then the connections are dropped instead.
    const idle = (async () => {
      for (;;) {
        await this.#idle();
        const waited = await Promise.race([closing, after(QUIT_WAIT_MS, 'idle' as const)]);
        // A job fetched just before the close began may have started meanwhile: it finishes first.
        if (waited === 'closed' || this.#running === 0) return waited;
      }
    })();
    const how = await Promise.race([closing, idle, after(graceMs, 'late' as const)]);
    for (const timer of timers) clearTimeout(timer);
    if (how === 'late') {
      this.#logger.warn(
        { queue: this.#o.address.queue },
        'grace period over: in-flight jobs are left to another replica',
      );
    }
    if (how !== 'closed') void worker.disconnect().catch(() => {});
    this.#workerRedis?.disconnect();
    return { drained: how !== 'late' };
  }

  /** Resolves when no job is being served (at once when none is). */
  #idle(): Promise<void> {
    if (this.#running === 0) return Promise.resolve();
    return new Promise((resolve) => this.#whenIdle.push(resolve));
  }

  async #serve(job: Job): Promise<void> {
    this.#running += 1;
    try {
      await this.#process(job);
    } finally {
      this.#running -= 1;
      if (this.#running === 0) for (const resolve of this.#whenIdle.splice(0)) resolve();
    }
  }

  async #process(job: Job): Promise<void> {
    const read = readEnvelope(job.data);
    if (!read.ok) {
      const why = read.problems.join('; ');
      this.#logger.warn(
        { jobId: job.id, queue: job.queueName, why },
        'poison job: not an A2A envelope, no reply possible',
      );
      const span = this.#startProcess(job, ROOT_CONTEXT);
      recordFailure(
        span,
        INVALID_ENVELOPE,
        'The job is not a Switchboard A2A envelope: recorded as failed, not run, no reply sent.',
      );
      span.end();
      throw new UnrecoverableError(`Not a Switchboard A2A job envelope (${why}).`);
    }
    const { envelope } = read;
    const reply = new ReplyWriter({
      redis: this.#o.redis,
      replyTo: envelope.replyTo,
      requestId: envelope.requestId,
    });
    const withTrace = this.#o.withTraceContext ?? restoreTraceContext;
    const delivery = job.id
      ? new JobDelivery({ jobId: job.id, queue: job.queueName, queueWaitMs: queueWaitOf(job) })
      : undefined;
    try {
      await withTrace(envelope.trace, async () => {
        const span = this.#startProcess(job, context.active());
        try {
          await context.with(trace.setSpan(context.active(), span), () =>
            serveRequest({
              envelope,
              delivery,
              reply,
              rpc: this.#rpc,
              card: this.#o.card,
              authenticate: this.#o.authenticate ?? serveEveryone,
              maxRequestBytes: this.#o.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES,
              ...(this.#o.inspectRequest ? { inspectRequest: this.#o.inspectRequest } : {}),
              logger: this.#logger,
            }),
          );
          // Answered; work the handler goes on with keeps the job (and its lock) until it is done.
          await delivery?.settled();
        } catch (error) {
          const type = errorType(error);
          recordFailure(span, type, `Handling the job failed: ${type}.`);
          throw error;
        } finally {
          span.end();
        }
      });
    } catch (error) {
      const message = reportUnexpectedError({ error, logger: this.#logger, fields: { jobId: job.id } });
      await reply.end(errorResponse(null, -32603, message));
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
}

/** How long a job waited before it was taken: `processedOn - timestamp`, 0 when either is unknown. */
function queueWaitOf(job: Job): number {
  const { timestamp, processedOn } = job;
  if (!Number.isFinite(timestamp) || !Number.isFinite(processedOn) || !processedOn) return 0;
  return Math.max(0, Math.round(processedOn - timestamp));
}
