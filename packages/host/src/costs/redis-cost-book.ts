import {
  COST_FIGURES,
  type CostFigures,
  emptyFigures,
  type Logger,
  OTHER_AGENTS,
  stderrLogger,
} from '@switchboard/agent';
import { type RedisConnection, RedisScript } from '@switchboard/redis';
import { HostError } from '../errors.ts';
import {
  addToDay,
  agentsOf,
  type CostBook,
  type CostDay,
  type CostEntry,
  costDay,
  costDayOf,
  type DayTotals,
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
  /**
   * How long recorded requests are added up in this process before one script adds them to Redis
   * (default 2000 ms; 0 writes each request at once). A read of this book writes what waits first;
   * another replica's read sees it after at most this long. `close()` writes what is left.
   */
  flushEveryMs?: number;
  /** Where a write that failed (and is tried again with the next) is reported; default stderr. */
  logger?: Pick<Logger, 'warn'>;
}

// One hash per day: `requests`, `agents` (how many it names) and `<figure>:<agent>` counters. An
// agent beyond the day's limit is added up under OTHER_AGENTS; the day expires after the retention.
const RECORD = new RedisScript(`
local day = KEYS[1]
local max, ttl, other = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
redis.call('HINCRBY', day, 'requests', ARGV[4])
local i = 5
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
 * The cost book on Redis: one hash per UTC day (`<prefix>:costs:<day>`). Requests are added up in
 * the process for `flushEveryMs`, then added per agent by one script, so replicas that record at
 * once never lose a count and a busy service sends one script every couple of seconds, not one a
 * request. A day names at most `MAX_BOOK_AGENTS` agents and expires `retentionDays` after its last
 * request; reading a range reads one hash per day, never the keyspace. What waits is lost only when
 * the process dies without `close()` (at most `flushEveryMs` of requests).
 */
export class RedisCostBook implements CostBook {
  readonly #redis: RedisConnection;
  readonly #prefix: string;
  readonly #ttlSeconds: number;
  readonly #flushEveryMs: number;
  readonly #logger: Pick<Logger, 'warn'>;
  /** What was recorded here and not yet written, by day. */
  #pending = new Map<string, DayTotals>();
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor({
    redis,
    prefix,
    retentionDays = MAX_BOOK_DAYS,
    flushEveryMs = 2_000,
    logger = stderrLogger(),
  }: RedisCostBookOptions) {
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
    if (!Number.isInteger(flushEveryMs) || flushEveryMs < 0) {
      throw new HostError('INVALID_OPTIONS', {
        message: `RedisCostBook flushEveryMs must be a whole number of milliseconds, 0 or more (got ${flushEveryMs}).`,
      });
    }
    this.#redis = redis;
    this.#prefix = prefix;
    this.#ttlSeconds = retentionDays * 86_400;
    this.#flushEveryMs = flushEveryMs;
    this.#logger = logger;
  }

  #key(day: string): string {
    return `${this.#prefix}:costs:${day}`;
  }

  async record({ at, cost }: CostEntry): Promise<void> {
    addToDay(this.#pending, costDayOf(at), 1, agentsOf(cost));
    if (this.#flushEveryMs === 0) return this.flush();
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.flush().catch((error: unknown) =>
        this.#logger.warn({ err: error }, 'cost book could not be written; it is tried again with the next'),
      );
    }, this.#flushEveryMs).unref();
  }

  /**
   * Writes what waits, one script per day; what could not be written waits for the next flush, so
   * nothing recorded here is counted twice or dropped while the process lives.
   */
  flush(): Promise<void> {
    // One flush at a time, in order; one that failed does not stop the next.
    const run = this.#flushing.then(() => this.#writePending());
    this.#flushing = run.catch(() => {});
    return run;
  }

  /** Writes what waits, one script per day; a day that fails waits for the next flush. */
  async #writePending(): Promise<void> {
    const due = this.#pending;
    this.#pending = new Map();
    const failed: unknown[] = [];
    for (const [day, { requests, agents }] of due) {
      const args = [...agents].flatMap(([agent, figures]) => [
        agent,
        ...COST_FIGURES.map((name) => String(figures[name])),
      ]);
      try {
        await RECORD.run(
          this.#redis,
          [this.#key(day)],
          [String(MAX_BOOK_AGENTS), String(this.#ttlSeconds), OTHER_AGENTS, String(requests), ...args],
        );
      } catch (error) {
        addToDay(this.#pending, day, requests, agents);
        failed.push(error);
      }
    }
    if (failed.length > 0) throw failed[0];
  }

  /** Writes what waits and stops the timer; call it when the service stops. */
  async close(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }

  async days(range: { from: string; to: string }): Promise<CostDay[]> {
    // This replica's requests are in what it reads; a write that fails here is only logged.
    await this.flush().catch((error: unknown) =>
      this.#logger.warn({ err: error }, 'cost book could not be written before a read'),
    );
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
