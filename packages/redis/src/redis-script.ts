import { createHash } from 'node:crypto';
import type { RedisConnection } from './redis-connection.ts';

/**
 * A Lua script run by its SHA1 (`EVALSHA`): its body crosses the wire only the first time a Redis
 * node meets it (or after `SCRIPT FLUSH`, a restart or a failover), when `NOSCRIPT` makes it sent
 * whole once (`EVAL`), which loads it. A script called once per request would otherwise send its
 * body every time. On a Redis Cluster each node loads it the first time a key of its slots is used.
 *
 * @example
 * const INCR_TO = new RedisScript(`return redis.call('INCRBY', KEYS[1], ARGV[1])`);
 * await INCR_TO.run(redis, ['{app}:count'], ['2']);
 */
export class RedisScript {
  readonly source: string;
  readonly sha: string;

  constructor(source: string) {
    this.source = source;
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  /** Runs it with `keys` (`KEYS`, every key it touches) and `args` (`ARGV`); resolves to its reply. */
  async run(
    redis: RedisConnection,
    keys: readonly string[],
    args: readonly (string | number)[] = [],
  ): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}
