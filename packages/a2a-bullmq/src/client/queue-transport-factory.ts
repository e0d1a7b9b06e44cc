import type { AgentCard } from '@a2a-js/sdk';
import type { Transport, TransportFactory } from '@a2a-js/sdk/client';
import { duplicateConnection, type RedisConnection } from '@switchboard/redis';
import { Queue } from 'bullmq';
import { type QueueLogger, stderrLogger } from '../logger.ts';
import { BULLMQ_BINDING, parseQueueUrl } from '../wire/queue-url.ts';
import { beforeDeadline } from './deadline.ts';
import type { ServiceParametersHook } from './queue-calls.ts';
import { QueueTransport, type QueueTransportOptions } from './queue-transport.ts';
import { ReplyInbox } from './reply-inbox.ts';

/** Longest `close()` waits for Redis before it drops the connections. */
const CLOSE_WAIT_MS = 2_000;

/** Options of {@link QueueTransportFactory}. */
export interface QueueTransportFactoryOptions {
  /**
   * The Redis connection of this factory. Its BullMQ queues enqueue on one duplicate of it (so
   * BullMQ's scripts are defined there, not copied into every `multi()` the caller makes on this
   * one), and the reply inbox reads on another. For fail-fast callers, create it with
   * `enableOfflineQueue: false` (the duplicates inherit it).
   */
  redis: RedisConnection;
  /** Namespace of the reply inbox key (default `switchboard`). */
  namespace?: string;
  /**
   * Longest wait for Redis to take a call's job (a call fails with `REDIS_UNAVAILABLE` while Redis
   * is unreachable), then for a unary reply, or between two frames of a stream (default 120 s). A
   * call that times out withdraws its job if no worker has taken it yet.
   */
  timeoutMs?: QueueTransportOptions['timeoutMs'];
  /** Requests larger than this are refused before they are sent (default 256 KiB, `DEFAULT_MAX_REQUEST_BYTES`). */
  maxRequestBytes?: QueueTransportOptions['maxRequestBytes'];
  /**
   * Fills each envelope's trace slot, called with the `send` span active. Default: the W3C context
   * (`traceparent`, `tracestate`, `baggage`) of that span, through the global propagator.
   */
  injectTrace?: QueueTransportOptions['injectTrace'];
  /**
   * Decides each call's service parameters from the exact JSON-RPC text its job will carry, with
   * the call's own parameters and `RequestOptions.context` (default: the call's own parameters).
   * This is where credentials bound to one request are made, e.g. a signature over the request
   * text sent as `authorization`, so a job read from Redis holds nothing reusable.
   *
   * @example
   * new QueueTransportFactory({
   *   redis,
   *   serviceParameters: async ({ agent, request, serviceParameters }) => ({
   *     ...serviceParameters,
   *     authorization: `Bearer ${await signFor(agent, request)}`,
   *   }),
   * });
   */
  serviceParameters?: ServiceParametersHook;
  /** How long finished jobs are kept for inspection (default 60 s and at most 1,000). */
  keepFinished?: { ageSeconds: number; count: number };
  /** Where the reply inbox reports read failures (default: stderr, as JSON lines). */
  logger?: QueueLogger;
}

/**
 * Lets the SDK's `ClientFactory` reach agents over their BullMQ queue: a card interface with
 * `protocolBinding` {@link BULLMQ_BINDING} gets a transport that sends each A2A call as one job and
 * reads its reply from this process's reply inbox. One inbox, and one BullMQ `Queue` per agent
 * queue, are shared by every client it creates; `close()` ends them.
 *
 * @example
 * const queue = new QueueTransportFactory({ redis });
 * const client = await new ClientFactory({ transports: [queue] }).createFromAgentCard(card);
 */
export class QueueTransportFactory implements TransportFactory {
  readonly #o: QueueTransportFactoryOptions;
  readonly #queues = new Map<string, Queue>();
  #queueRedis: RedisConnection | undefined;
  #inbox: ReplyInbox | undefined;

  constructor(options: QueueTransportFactoryOptions) {
    this.#o = options;
  }

  get protocolName(): string {
    return BULLMQ_BINDING;
  }

  async create(url: string, card: AgentCard): Promise<Transport> {
    const { queue, prefix } = parseQueueUrl(url);
    const key = `${prefix}/${queue}`;
    let bullQueue = this.#queues.get(key);
    if (!bullQueue) {
      const keep = this.#o.keepFinished ?? { ageSeconds: 60, count: 1_000 };
      if (!this.#queueRedis) {
        this.#queueRedis = duplicateConnection(this.#o.redis);
        // Its failures surface as calls that fail with REDIS_UNAVAILABLE.
        this.#queueRedis.on('error', () => {});
      }
      bullQueue = new Queue(queue, {
        connection: this.#queueRedis,
        prefix,
        defaultJobOptions: {
          attempts: 3,
          backoff: { type: 'exponential', delay: 500 },
          removeOnComplete: { age: keep.ageSeconds, count: keep.count },
          removeOnFail: { age: 24 * 3600, count: 10_000 },
        },
      });
      this.#queues.set(key, bullQueue);
    }
    this.#inbox ??= new ReplyInbox({
      redis: this.#o.redis,
      logger: this.#o.logger ?? stderrLogger(),
      ...(this.#o.namespace ? { namespace: this.#o.namespace } : {}),
    });
    const { timeoutMs, maxRequestBytes, injectTrace, serviceParameters } = this.#o;
    return new QueueTransport({
      queue: bullQueue,
      inbox: this.#inbox,
      agent: card.name,
      ...(serviceParameters ? { serviceParameters } : {}),
      ...(timeoutMs ? { timeoutMs } : {}),
      ...(maxRequestBytes ? { maxRequestBytes } : {}),
      ...(injectTrace ? { injectTrace } : {}),
    });
  }

  /** Calls waiting for a reply right now (0 when idle: nothing is left behind by finished calls). */
  get pendingReplies(): number {
    return this.#inbox?.pending ?? 0;
  }

  /**
   * Closes the inbox, the queues and their connection (not `redis`, which the caller owns). Waits
   * at most a few seconds for Redis: while it is unreachable, the connections are dropped instead.
   */
  async close(): Promise<void> {
    await this.#inbox?.close();
    const queues = [...this.#queues.values()];
    this.#queues.clear();
    const queueRedis = this.#queueRedis;
    this.#queueRedis = undefined;
    const closed = await beforeDeadline(
      Promise.all(queues.map((queue) => queue.close())).then(() => queueRedis?.quit()),
      { ms: CLOSE_WAIT_MS },
    ).catch(() => ({ done: false }));
    if (!closed.done) queueRedis?.disconnect();
  }
}
