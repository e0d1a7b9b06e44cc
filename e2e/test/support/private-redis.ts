import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@switchboard/test-processes';

/** A redis-server of the test's own, with append-only persistence, that the test can stop and start again. */
export interface PrivateRedis {
  url: string;
  /** Shuts it down (SIGTERM: it writes its append-only file first). */
  stop(): Promise<void>;
  /** Starts it again on the same port and data directory; resolves once it accepts connections. */
  start(): Promise<void>;
}

/** How long a redis-server may take to load its append-only file and listen, on a busy machine. */
const READY_MS = 30_000;

/** Resolves when redis-server logs that it accepts connections; rejects, with its log, if it exits first. */
function untilReady(child: ChildProcess, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let log = '';
    const done = (error?: Error) => {
      clearTimeout(timer);
      child.stdout?.off('data', take);
      child.off('exit', exited);
      if (error) {
        child.kill('SIGKILL');
        reject(error);
      } else resolve();
    };
    const take = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('Ready to accept connections')) done();
    };
    const exited = (code: number | null) =>
      done(new Error(`redis-server on port ${port} exited (${code}) before it was ready:\n${log}`));
    const timer = setTimeout(
      () =>
        done(new Error(`redis-server on port ${port} was not ready within ${READY_MS / 1000} s:\n${log}`)),
      READY_MS,
    );
    child.stdout?.on('data', take);
    child.once('exit', exited);
  });
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
      // Not detached: a redis-server cannot notice its parent go, but a Ctrl-C in the terminal reaches it.
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    await untilReady(child, port);
    // Its log goes on; read and drop it, so the pipe never fills.
    child.stdout?.resume();
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
