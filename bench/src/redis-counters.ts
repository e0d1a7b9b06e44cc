/**
 * What clients asked of a Redis server over a window, from its own counters: commands by name
 * (`INFO commandstats`, which counts the commands run inside Lua scripts as well as EVALSHA itself)
 * and bytes received (`total_net_input_bytes`, every byte clients wrote: commands and arguments).
 */
import { isCluster, type RedisConnection } from '@switchboard/redis';
import type { Redis } from 'ioredis';

/** A reading of the counters, or the difference of two. */
export interface RedisCounters {
  /** Calls by command name (lower case, e.g. `evalsha`, `hset`, `bullmq` subcommands as Redis names them). */
  calls: ReadonlyMap<string, number>;
  /** Sum of `calls`. */
  commands: number;
  /** `total_net_input_bytes`. */
  inputBytes: number;
}

const field = (info: string, name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(info)?.[1] ?? 0);

/** The servers behind a connection: itself, or every master of a cluster (the work is theirs). */
const serversOf = (redis: RedisConnection): Redis[] => (isCluster(redis) ? redis.nodes('master') : [redis]);

/** Reads the counters now: of the server, or summed over a cluster's masters. */
export async function readRedisCounters(redis: RedisConnection): Promise<RedisCounters> {
  const readings = await Promise.all(serversOf(redis).map(readServerCounters));
  const calls = new Map<string, number>();
  for (const reading of readings)
    for (const [name, count] of reading.calls) calls.set(name, (calls.get(name) ?? 0) + count);
  return {
    calls,
    commands: readings.reduce((sum, reading) => sum + reading.commands, 0),
    inputBytes: readings.reduce((sum, reading) => sum + reading.inputBytes, 0),
  };
}

async function readServerCounters(redis: Redis): Promise<RedisCounters> {
  const commandstats = await redis.info('commandstats');
  const stats = await redis.info('stats');
  const calls = new Map<string, number>();
  for (const [, name = '', count = '0'] of commandstats.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    calls.set(name, Number(count));
  }
  return {
    calls,
    commands: [...calls.values()].reduce((sum, count) => sum + count, 0),
    inputBytes: field(stats, 'total_net_input_bytes'),
  };
}

/** What happened between two readings. */
export function countersSince(before: RedisCounters, after: RedisCounters): RedisCounters {
  const calls = new Map<string, number>();
  for (const [name, count] of after.calls) {
    const delta = count - (before.calls.get(name) ?? 0);
    if (delta > 0) calls.set(name, delta);
  }
  return {
    calls,
    commands: [...calls.values()].reduce((sum, count) => sum + count, 0),
    inputBytes: after.inputBytes - before.inputBytes,
  };
}

/**
 * Starts a window: on a server of the bench's own, `CONFIG RESETSTAT` first, so the counters begin
 * at zero; on a shared one the counters are left alone (other clients' work counts too). Returns the
 * reading to pass to {@link countersSince} at the end.
 */
export async function startRedisWindow(
  redis: RedisConnection,
  { own }: { own: boolean },
): Promise<RedisCounters> {
  if (own) await Promise.all(serversOf(redis).map((server) => server.config('RESETSTAT')));
  return readRedisCounters(redis);
}
