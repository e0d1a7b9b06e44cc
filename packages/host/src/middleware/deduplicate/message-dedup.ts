import type { RedisConnection } from '@switchboard/redis';
import { z } from 'zod';

const DedupRecord = z.object({
  jobId: z.string(),
  taskId: z.string().optional(),
  contextId: z.string().optional(),
});
type DedupRecord = z.infer<typeof DedupRecord>;

/** What a message id has been seen as. */
export type DedupClaim =
  | { kind: 'new' }
  /** The same job again (BullMQ recovered it from a crashed worker): continue its task. */
  | { kind: 'retry'; taskId: string | undefined }
  /** Another job with the same message id: answer with the task the first one started. */
  | { kind: 'duplicate'; taskId: string | undefined };

/**
 * Remembers which job took a `messageId` and which task it started, so the same message sent twice
 * does not run twice, and a job recovered after a crash continues the task it had started.
 */
export class MessageDedup {
  readonly #redis: RedisConnection;
  readonly #prefix: string;
  readonly #ttlSeconds: number;

  constructor({
    redis,
    prefix,
    ttlSeconds = 24 * 3600,
  }: { redis: RedisConnection; prefix: string; ttlSeconds?: number }) {
    this.#redis = redis;
    this.#prefix = prefix;
    this.#ttlSeconds = ttlSeconds;
  }

  #key(messageId: string): string {
    return `${this.#prefix}:dedup:${messageId}`;
  }

  async claim({ messageId, jobId }: { messageId: string; jobId: string }): Promise<DedupClaim> {
    const record: DedupRecord = { jobId };
    const set = await this.#redis.set(
      this.#key(messageId),
      JSON.stringify(record),
      'EX',
      this.#ttlSeconds,
      'NX',
    );
    if (set === 'OK') return { kind: 'new' };
    const existing = await this.read(messageId);
    if (!existing) return { kind: 'new' };
    return existing.jobId === jobId
      ? { kind: 'retry', taskId: existing.taskId }
      : { kind: 'duplicate', taskId: existing.taskId };
  }

  async recordTask({
    messageId,
    jobId,
    taskId,
    contextId,
  }: {
    messageId: string;
    jobId: string;
    taskId: string;
    contextId: string;
  }) {
    const record: DedupRecord = { jobId, taskId, contextId };
    await this.#redis.set(this.#key(messageId), JSON.stringify(record), 'EX', this.#ttlSeconds);
  }

  async read(messageId: string): Promise<DedupRecord | undefined> {
    const raw = await this.#redis.get(this.#key(messageId));
    if (raw === null) return undefined;
    try {
      return DedupRecord.parse(JSON.parse(raw));
    } catch {
      return undefined;
    }
  }
}
