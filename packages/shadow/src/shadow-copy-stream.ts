import type { Cluster, Redis } from 'ioredis';
import { ShadowCopy } from './shadow-records.ts';

const GROUP = 'shadow';

/**
 * The queue of one agent's shadow copies: a Redis Stream (`<prefix>:shadow:copies:<agent>`) read by
 * the shadow's workers as one consumer group, each copy to one worker. It keeps at most about
 * `maxLength` copies: when the shadow falls behind, the oldest go, never the live requests.
 */
export class ShadowCopyStream {
  readonly #redis: Redis | Cluster;
  readonly #key: string;
  readonly #maxLength: number;

  constructor({
    redis,
    prefix,
    agent,
    maxLength = 10_000,
  }: { redis: Redis | Cluster; prefix: string; agent: string; maxLength?: number }) {
    this.#redis = redis;
    this.#key = `${prefix}:shadow:copies:${agent}`;
    this.#maxLength = maxLength;
  }

  /** Appends a copy. The stream expires a day after its last copy (no shadow reads it any more). */
  async add(copy: ShadowCopy): Promise<void> {
    await this.#redis
      .multi()
      .xadd(this.#key, 'MAXLEN', '~', this.#maxLength, '*', 'copy', JSON.stringify(copy))
      .expire(this.#key, 24 * 3600)
      .exec();
  }

  /**
   * Waits up to `blockMs` for copies for `consumer` on `redis` (a connection of its own: the read
   * blocks it) and hands each to `handle`, acknowledging and deleting it after. A copy that does not
   * parse is dropped.
   */
  async take({
    redis,
    consumer,
    count,
    blockMs,
    handle,
  }: {
    redis: Redis | Cluster;
    consumer: string;
    count: number;
    blockMs: number;
    handle: (copy: ShadowCopy) => Promise<void>;
  }): Promise<number> {
    await this.#ensureGroup();
    const reply = (await redis
      .xreadgroup('GROUP', GROUP, consumer, 'COUNT', count, 'BLOCK', blockMs, 'STREAMS', this.#key, '>')
      .catch((error: unknown) => {
        // The stream expired with its group (no copy for a day): make the group again next time.
        if (String(error).includes('NOGROUP')) this.#grouped = false;
        throw error;
      })) as [string, [string, string[]][]][] | null;
    const entries = reply?.[0]?.[1] ?? [];
    await Promise.all(
      entries.map(async ([id, fields]) => {
        try {
          const parsed = ShadowCopy.safeParse(JSON.parse(fields[1] ?? 'null'));
          if (parsed.success) await handle(parsed.data);
        } finally {
          await this.#redis.multi().xack(this.#key, GROUP, id).xdel(this.#key, id).exec();
        }
      }),
    );
    return entries.length;
  }

  #grouped = false;
  async #ensureGroup(): Promise<void> {
    if (this.#grouped) return;
    try {
      await this.#redis.xgroup('CREATE', this.#key, GROUP, '0', 'MKSTREAM');
    } catch (error) {
      if (!String(error).includes('BUSYGROUP')) throw error;
    }
    this.#grouped = true;
  }
}
