import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './services.ts';

/** A redis-server of the test's own, with append-only persistence, that the test can stop and start again. */
export interface PrivateRedis {
  url: string;
  /** Shuts it down (SIGTERM: it writes its append-only file first). */
  stop(): Promise<void>;
  /** Starts it again on the same port and data directory; resolves once it answers. */
  start(): Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
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

/** Starts a private redis-server (AOF on, `noeviction`) on a free loopback port. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-drill-redis-'));
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      'redis-server',
      [
        '--bind',
        '127.0.0.1',
        '--port',
        String(port),
        '--dir',
        dir,
        '--appendonly',
        'yes',
        '--save',
        '',
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 100; i++) {
      if (await answers(url)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`redis-server did not start on port ${port}`);
  };
  await start();
  return {
    url,
    start,
    stop: () =>
      new Promise<void>((resolve) => {
        const running = child;
        if (!running || running.exitCode !== null) return resolve();
        running.once('exit', () => resolve());
        running.kill('SIGTERM');
      }),
  };
}
