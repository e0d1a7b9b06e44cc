import { type RedisConnection, RedisScript } from '@switchboard/redis';
import { HostError } from '../../errors.ts';
import type { LimitCounters, WindowCount } from './limit-counters.ts';

// A fixed window: the first request creates the counter with the window as its TTL.
const COUNT_REQUEST = new RedisScript(`
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`);

// Slots are a sorted set scored by lease end (Redis time, so replicas' clocks do not matter); the key
// itself expires with the newest lease, so nothing outlives the callers who held it.
const NOW_MS = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

const ACQUIRE_SLOT = new RedisScript(`${NOW_MS}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`);

const RENEW_SLOT = new RedisScript(`${NOW_MS}
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
`);

const SLOTS_HELD = new RedisScript(`${NOW_MS}
return redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')
`);

/** Options of {@link RedisLimitCounters}. */
export interface RedisLimitCountersOptions {
  /** An ioredis connection; the caller owns it (and closes it). */
  redis: RedisConnection;
  /** Key prefix of the agent, e.g. `{switchboard:orders}`; counts live under `<prefix>:limit:`. */
  prefix: string;
}

/**
 * {@link LimitCounters} on Redis, shared by every replica of an agent: a request window is a counter
 * at `<prefix>:limit:<key>` that expires with its window; the tasks in flight of a caller are a
 * sorted set at `<prefix>:limit:<key>` scored by lease end, expiring with its newest lease. Nothing is
 * kept without a TTL.
 *
 * @example
 * hostAgent({ ..., limits: { counters: new RedisLimitCounters({ redis, prefix: '{switchboard:orders}' }) } });
 */
export class RedisLimitCounters implements LimitCounters {
  readonly #redis: RedisConnection;
  readonly #prefix: string;

  constructor({ redis, prefix }: RedisLimitCountersOptions) {
    if (typeof redis?.eval !== 'function' || typeof prefix !== 'string' || prefix === '') {
      throw new HostError('INVALID_OPTIONS', {
        message:
          'RedisLimitCounters needs an ioredis connection and a non-empty prefix, e.g. { redis, prefix: "{switchboard:orders}" }.',
      });
    }
    this.#redis = redis;
    this.#prefix = prefix;
  }

  #key(key: string): string {
    return `${this.#prefix}:limit:${key}`;
  }

  async countRequest(key: string, windowMs: number): Promise<WindowCount> {
    const [count, ttl] = (await COUNT_REQUEST.run(this.#redis, [this.#key(key)], [String(windowMs)])) as [
      number,
      number,
    ];
    return { count: Number(count), resetInMs: Number(ttl) };
  }

  async acquireSlot(key: string, slot: string, max: number, leaseMs: number): Promise<boolean> {
    const taken = await ACQUIRE_SLOT.run(this.#redis, [this.#key(key)], [slot, String(max), String(leaseMs)]);
    return Number(taken) === 1;
  }

  async renewSlot(key: string, slot: string, leaseMs: number): Promise<void> {
    await RENEW_SLOT.run(this.#redis, [this.#key(key)], [slot, String(leaseMs)]);
  }

  async releaseSlot(key: string, slot: string): Promise<void> {
    await this.#redis.zrem(this.#key(key), slot);
  }

  async slotsHeld(key: string): Promise<number> {
    return Number(await SLOTS_HELD.run(this.#redis, [this.#key(key)]));
  }
}
