import type { AgentCard } from '@a2a-js/sdk';
import type { Transport, TransportFactory } from '@a2a-js/sdk/client';
import { type Logger, stderrLogger } from '@switchboard/agent';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { BULLMQ_BINDING, parseQueueUrl } from './binding.ts';
import { QueueTransport, type QueueTransportOptions } from './queue-transport.ts';
import { ReplyInbox } from './reply-inbox.ts';

/** Options of {@link QueueTransportFactory}. */
export interface QueueTransportFactoryOptions {
  /**
   * The Redis connection for enqueuing (shared by every queue of this factory). For fail-fast
   * callers, create it with `enableOfflineQueue: false`.
   */
  redis: Redis;
  /** Namespace of the reply inbox key (default `switchboard`). */
  namespace?: string;
  timeoutMs?: QueueTransportOptions['timeoutMs'];
  maxRequestBytes?: QueueTransportOptions['maxRequestBytes'];
  injectTrace?: QueueTransportOptions['injectTrace'];
  /** How long finished jobs are kept for inspection (default 60 s and at most 1,000). */
  keepFinished?: { ageSeconds: number; count: number };
  logger?: Logger;
}

/**
 * Lets the SDK's `ClientFactory` reach agents over their BullMQ queue:
 * `new ClientFactory({ transports: [new QueueTransportFactory({ redis })] })`. One reply inbox and
 * one BullMQ `Queue` per agent queue are shared by every client it creates; `close()` ends them.
 */
export class QueueTransportFactory implements TransportFactory {
  readonly #o: QueueTransportFactoryOptions;
  readonly #queues = new Map<string, Queue>();
  #inbox: ReplyInbox | undefined;

  constructor(options: QueueTransportFactoryOptions) {
    this.#o = options;
  }

  get protocolName(): string {
    return BULLMQ_BINDING;
  }

  async create(url: string, _card: AgentCard): Promise<Transport> {
    const { queue, prefix } = parseQueueUrl(url);
    const key = `${prefix}/${queue}`;
    let bullQueue = this.#queues.get(key);
    if (!bullQueue) {
      const keep = this.#o.keepFinished ?? { ageSeconds: 60, count: 1_000 };
      bullQueue = new Queue(queue, {
        connection: this.#o.redis,
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
    const { timeoutMs, maxRequestBytes, injectTrace } = this.#o;
    return new QueueTransport({
      queue: bullQueue,
      inbox: this.#inbox,
      ...(timeoutMs ? { timeoutMs } : {}),
      ...(maxRequestBytes ? { maxRequestBytes } : {}),
      ...(injectTrace ? { injectTrace } : {}),
    });
  }

  /** Calls waiting for a reply right now (0 when idle: nothing is left behind by finished calls). */
  get pendingReplies(): number {
    return this.#inbox?.pending ?? 0;
  }

  /** Closes the inbox and the queues (not the Redis connection, which the caller owns). */
  async close(): Promise<void> {
    await this.#inbox?.close();
    await Promise.all([...this.#queues.values()].map((queue) => queue.close()));
    this.#queues.clear();
  }
}
