import { COST_FIGURES, type CostFigures, emptyFigures, OTHER_AGENTS } from '@switchboard/agent';
import { type RedisConnection, RedisScript } from '@switchboard/redis';
import { HostError } from '../errors.ts';
import {
  type CostBook,
  type CostDay,
  type CostEntry,
  costDay,
  costDayOf,
  daysBetween,
  MAX_BOOK_AGENTS,
  MAX_BOOK_DAYS,
} from './cost-book.ts';

/** Options of {@link RedisCostBook}. */
export interface RedisCostBookOptions {
  redis: RedisConnection;
  /** The agent's key prefix, e.g. `{switchboard:supervisor}`. */
  prefix: string;
  /** How long a day's totals are kept after its last request (default 93 days, the longest a read spans). */
  retentionDays?: number;
}

// One hash per day: `requests`, `agents` (how many it names) and `<figure>:<agent>` counters. An
// agent beyond the day's limit is added up under OTHER_AGENTS; the day expires after the retention.
const RECORD = new RedisScript(`
local day = KEYS[1]
local max, ttl, other = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
redis.call('HINCRBY', day, 'requests', 1)
local i = 4
while i <= #ARGV do
  local agent = ARGV[i]
  if redis.call('HEXISTS', day, 'hops:' .. agent) == 0 then
    if tonumber(redis.call('HGET', day, 'agents') or '0') >= max then
      agent = other
    end
    if redis.call('HEXISTS', day, 'hops:' .. agent) == 0 then
      redis.call('HINCRBY', day, 'agents', 1)
    end
  end
  redis.call('HINCRBY', day, 'tokensIn:' .. agent, ARGV[i + 1])
  redis.call('HINCRBY', day, 'tokensOut:' .. agent, ARGV[i + 2])
  redis.call('HINCRBY', day, 'modelMs:' .. agent, ARGV[i + 3])
  redis.call('HINCRBY', day, 'toolMs:' .. agent, ARGV[i + 4])
  redis.call('HINCRBY', day, 'queueWaitMs:' .. agent, ARGV[i + 5])
  redis.call('HINCRBY', day, 'hops:' .. agent, ARGV[i + 6])
  i = i + 7
end
redis.call('EXPIRE', day, ttl)
return 1
`);

/**
 * The cost book on Redis: one hash per UTC day (`<prefix>:costs:<day>`), each request's figures
 * added per agent by one script, so replicas that record at once never lose a count. A day names
 * at most `MAX_BOOK_AGENTS` agents and expires `retentionDays` after its last request; reading a
 * range reads one hash per day, never the keyspace.
 */
export class RedisCostBook implements CostBook {
  readonly #redis: RedisConnection;
  readonly #prefix: string;
  readonly #ttlSeconds: number;

  constructor({ redis, prefix, retentionDays = MAX_BOOK_DAYS }: RedisCostBookOptions) {
    if (!redis || !prefix) {
      throw new HostError('INVALID_OPTIONS', {
        message: 'RedisCostBook needs a redis connection and a key prefix.',
      });
    }
    if (!Number.isInteger(retentionDays) || retentionDays < 1) {
      throw new HostError('INVALID_OPTIONS', {
        message: `RedisCostBook retentionDays must be a whole number of days, at least 1 (got ${retentionDays}).`,
      });
    }
    this.#redis = redis;
    this.#prefix = prefix;
    this.#ttlSeconds = retentionDays * 86_400;
  }

  #key(day: string): string {
    return `${this.#prefix}:costs:${day}`;
  }

  async record({ at, cost }: CostEntry): Promise<void> {
    const args = cost.agents.flatMap((entry) => [
      entry.agent,
      ...COST_FIGURES.map((name) => String(entry[name])),
    ]);
    await RECORD.run(
      this.#redis,
      [this.#key(costDayOf(at))],
      [String(MAX_BOOK_AGENTS), String(this.#ttlSeconds), OTHER_AGENTS, ...args],
    );
  }

  async days(range: { from: string; to: string }): Promise<CostDay[]> {
    const days = daysBetween(range);
    const hashes = await Promise.all(days.map((day) => this.#redis.hgetall(this.#key(day))));
    return days.flatMap((day, index) => {
      const hash = hashes[index] ?? {};
      const requests = Number(hash.requests ?? 0);
      if (!requests) return [];
      const byAgent = new Map<string, CostFigures>();
      for (const [field, value] of Object.entries(hash)) {
        const at = field.indexOf(':');
        const name = field.slice(0, at) as (typeof COST_FIGURES)[number];
        if (at < 0 || !COST_FIGURES.includes(name)) continue;
        const agent = field.slice(at + 1);
        const figures = byAgent.get(agent) ?? emptyFigures();
        figures[name] = Number(value) || 0;
        byAgent.set(agent, figures);
      }
      return [costDay(day, requests, byAgent)];
    });
  }
}
