import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRedisConnection, type RedisConnectionOptions } from '@switchboard/redis';

/** Where the system's Redis comes from. */
export type RedisSource =
  | { kind: 'running'; url: string }
  | { kind: 'started'; url: string; stop(): Promise<void> }
  | { kind: 'none'; url: string; why: string };

/** Whether a Redis server (or cluster) answers PING at `target`, a URL or connection options, within `timeoutMs`. */
export async function redisAnswers(
  target: string | RedisConnectionOptions,
  timeoutMs = 1_000,
): Promise<boolean> {
  const options = typeof target === 'string' ? { url: target } : target;
  const redis = createRedisConnection({
    ...options,
    lazyConnect: true,
    retry: false,
    connectTimeoutMs: timeoutMs,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

const isLoopback = (host: string) => host === 'localhost' || host.startsWith('127.') || host === '::1';

/**
 * A Redis for the system: the one at `url` when it answers; else, for a loopback URL and when
 * `redis-server` is installed, one started here as a child process (no persistence, `noeviction`),
 * stopped with `stop()`; else `none` with the reason.
 */
export async function findRedis(url: string): Promise<RedisSource> {
  if (await redisAnswers(url)) return { kind: 'running', url };
  const parsed = new URL(url);
  if (!isLoopback(parsed.hostname)) {
    return { kind: 'none', url, why: `nothing answers at ${parsed.host}, and it is not this machine` };
  }
  if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status !== 0) {
    return { kind: 'none', url, why: `nothing answers at ${parsed.host}, and redis-server is not installed` };
  }
  const port = parsed.port || '6379';
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-redis-'));
  const child: ChildProcess = spawn(
    'redis-server',
    [
      '--bind',
      '127.0.0.1',
      '--port',
      port,
      '--save',
      '',
      '--appendonly',
      'no',
      '--maxmemory-policy',
      'noeviction',
      '--dir',
      dir,
    ],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 50; i++) {
    if (await redisAnswers(url, 200)) {
      return {
        kind: 'started',
        url,
        stop: () =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  return { kind: 'none', url, why: `redis-server did not start on port ${port}` };
}
