import type { RedisConnection } from '@switchboard/redis';
import { Queue } from 'bullmq';
import type { QueueAddress } from '../wire/queue-url.ts';

/** How much waits on an agent's queue, and for how long the oldest of it has waited. */
export interface QueueDepth {
  /** Jobs no replica has taken yet (waiting and prioritized). */
  waiting: number;
  /** Jobs a replica is working on. */
  active: number;
  /** Jobs retried later (after a failed attempt). */
  delayed: number;
  /** How long the oldest waiting job has waited, in ms; absent when none waits. */
  oldestWaitMs?: number;
}

/**
 * Reads queue depths for the operators (the console's team page): one BullMQ `Queue` per address,
 * over the connection it is given (not closed by {@link QueueDepthReader.close}).
 *
 * @example
 * const depths = new QueueDepthReader({ redis });
 * const { waiting, oldestWaitMs } = await depths.read(defaultQueueAddress('billing', 'acme'));
 */
export class QueueDepthReader {
  readonly #redis: RedisConnection;
  readonly #queues = new Map<string, Queue>();

  constructor({ redis }: { redis: RedisConnection }) {
    this.#redis = redis;
  }

  async read(address: QueueAddress, now = Date.now()): Promise<QueueDepth> {
    const key = `${address.prefix}/${address.queue}`;
    let queue = this.#queues.get(key);
    if (!queue) {
      queue = new Queue(address.queue, { connection: this.#redis, prefix: address.prefix });
      this.#queues.set(key, queue);
    }
    const counts = await queue.getJobCounts('wait', 'prioritized', 'active', 'delayed');
    // BullMQ keeps the waiting list newest first: the oldest is the last of it.
    const [oldest] = await queue.getJobs(['wait'], -1, -1);
    const waiting = (counts.wait ?? 0) + (counts.prioritized ?? 0);
    return {
      waiting,
      active: counts.active ?? 0,
      delayed: counts.delayed ?? 0,
      ...(oldest && waiting > 0 ? { oldestWaitMs: Math.max(0, now - oldest.timestamp) } : {}),
    };
  }

  /** Closes its queues (the connection stays open). */
  async close(): Promise<void> {
    await Promise.all([...this.#queues.values()].map((queue) => queue.close()));
    this.#queues.clear();
  }
}
