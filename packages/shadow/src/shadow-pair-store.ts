import { defaultQueueAddress } from '@switchboard/a2a-bullmq';
import { RedisScript } from '@switchboard/redis';
import type { Cluster, Redis } from 'ioredis';
import { ShadowError } from './errors.ts';
import { type ShadowCopy, ShadowJudgement, ShadowPair, ShadowSide } from './shadow-records.ts';

/**
 * Where a service keeps an agent's shadow records: under its queue's prefix (`{<namespace>:<agent>}`),
 * so a pair, its index and the copies share the agent's Redis Cluster slot.
 */
export function shadowPrefix(namespace: string, agent: string): string {
  return defaultQueueAddress(agent, namespace).prefix;
}

/** Options of {@link ShadowPairStore}. */
export interface ShadowPairStoreOptions {
  redis: Redis | Cluster;
  /** Key prefix, e.g. `{switchboard:shadow}` (a hash tag keeps a pair and the index in one slot). */
  prefix: string;
  /** How long a pair is kept after its request was accepted (default 7 days). */
  retentionSeconds?: number;
}

// Sets a field of a pair only while the pair exists: HSET on a missing key would create a pair without expiry.
const SET_IF_OPEN = new RedisScript(
  "if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) return 1 end return 0",
);

/**
 * The pair records of shadow runs in Redis: one hash per live request (`copy`, then `live`,
 * `shadow` and `operator` as each side finishes, in any order, and a judge's `judgement`) and one
 * index by acceptance time.
 * Each pair expires `retentionSeconds` after its request was accepted; the index drops what is older
 * on every new pair, and expires when no pair has come for that long.
 */
export class ShadowPairStore {
  readonly #redis: Redis | Cluster;
  readonly #prefix: string;
  readonly #retentionMs: number;

  constructor({ redis, prefix, retentionSeconds = 7 * 24 * 3600 }: ShadowPairStoreOptions) {
    if (!prefix?.trim() || !Number.isFinite(retentionSeconds) || retentionSeconds <= 0) {
      throw new ShadowError('INVALID_OPTIONS', {
        message: `ShadowPairStore needs a key prefix and a positive retentionSeconds (got prefix "${prefix}", retentionSeconds ${retentionSeconds}).`,
      });
    }
    this.#redis = redis;
    this.#prefix = prefix;
    this.#retentionMs = retentionSeconds * 1000;
  }

  #pairKey(taskId: string): string {
    return `${this.#prefix}:shadow:pair:${taskId}`;
  }

  get #indexKey(): string {
    return `${this.#prefix}:shadow:pairs`;
  }

  /** Opens the pair of a live request that was copied to a shadow running `candidate`. */
  async open(copy: ShadowCopy, candidate: string): Promise<void> {
    const accepted = Date.parse(copy.acceptedAt);
    const key = this.#pairKey(copy.taskId);
    await this.#redis
      .multi()
      .hset(key, 'copy', JSON.stringify({ ...copy, candidate }))
      .pexpireat(key, accepted + this.#retentionMs)
      .zadd(this.#indexKey, accepted, copy.taskId)
      .zremrangebyscore(this.#indexKey, '-inf', Date.now() - this.#retentionMs)
      .pexpire(this.#indexKey, this.#retentionMs)
      .exec();
  }

  /** Records one side of a pair. A side of a request whose pair was never opened (not sampled) is dropped. */
  async record(taskId: string, side: ShadowSide): Promise<boolean> {
    return this.#setField(taskId, side.role, JSON.stringify(ShadowSide.parse(side)));
  }

  /** Keeps a judge's verdict on a pair's answers, replacing an earlier one. False if the pair is gone. */
  async judge(taskId: string, judgement: ShadowJudgement): Promise<boolean> {
    return this.#setField(taskId, 'judgement', JSON.stringify(ShadowJudgement.parse(judgement)));
  }

  async #setField(taskId: string, field: string, value: string): Promise<boolean> {
    // Only into an open pair: HSET on a missing key would create a pair without expiry.
    const written = await SET_IF_OPEN.run(this.#redis, [this.#pairKey(taskId)], [field, value]);
    return written === 1;
  }

  /** One pair, as far as it is recorded. */
  async get(taskId: string): Promise<ShadowPair | undefined> {
    const fields = await this.#redis.hgetall(this.#pairKey(taskId));
    return pairOf(fields);
  }

  /** The pairs of requests accepted since `since` (default: all kept), oldest first. */
  async list({ since, limit = 10_000 }: { since?: Date; limit?: number } = {}): Promise<ShadowPair[]> {
    const ids = await this.#redis.zrangebyscore(
      this.#indexKey,
      since ? since.getTime() : '-inf',
      '+inf',
      'LIMIT',
      0,
      limit,
    );
    if (ids.length === 0) return [];
    const pipeline = this.#redis.pipeline();
    for (const id of ids) pipeline.hgetall(this.#pairKey(id));
    const replies = (await pipeline.exec()) ?? [];
    return replies.flatMap(([, fields]) => pairOf(fields as Record<string, string>) ?? []);
  }
}

function pairOf(fields: Record<string, string> | null): ShadowPair | undefined {
  if (!fields?.copy) return undefined;
  const copy = JSON.parse(fields.copy) as Record<string, unknown>;
  const parsed = ShadowPair.safeParse({
    ...copy,
    ...(fields.live ? { live: JSON.parse(fields.live) } : {}),
    ...(fields.shadow ? { shadow: JSON.parse(fields.shadow) } : {}),
    ...(fields.operator ? { operator: JSON.parse(fields.operator) } : {}),
    ...(fields.judgement ? { judgement: JSON.parse(fields.judgement) } : {}),
  });
  return parsed.success ? parsed.data : undefined;
}
