/**
 * A Redis server of the bench's own: `redis-server` on a free loopback port, without persistence
 * (`--save '' --appendonly no`), so its counters (`INFO commandstats`, `INFO stats`) hold the
 * bench's traffic alone. It is this process's child and is killed when this process exits.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redisAnswers } from '@switchboard/cli';
import { freePort } from './loopback-port.ts';

/** A running private Redis. */
export interface PrivateRedis {
  url: string;
  pid: number;
  /** SIGTERM, then SIGKILL after 5 s; resolves once it has exited and its folder is gone. */
  stop(): Promise<void>;
}

function exitOf(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/**
 * Starts `redis-server` (it must be on the PATH) and waits until it answers PING (10 s at most; a
 * port taken meanwhile is retried on another, three times).
 *
 * @example
 * const redis = await startPrivateRedis();
 * try { ... redis.url ... } finally { await redis.stop(); }
 */
export async function startPrivateRedis({
  command = 'redis-server',
}: {
  command?: string;
} = {}): Promise<PrivateRedis> {
  let lastOutput = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-bench-redis-'));
    const child = spawn(
      command,
      ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.on('error', (error) => {
      output += String(error);
    });
    for (const stream of [child.stdout, child.stderr])
      stream?.on('data', (chunk: Buffer) => (output += chunk));
    const exited = exitOf(child);
    // Killed with this process however it ends (an exception, process.exit, Ctrl-C's SIGINT reaches it too).
    const killOnExit = () => child.kill('SIGKILL');
    process.once('exit', killOnExit);
    const url = `redis://127.0.0.1:${port}`;
    const stop = async () => {
      process.off('exit', killOnExit);
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
      await rm(dir, { recursive: true, force: true });
    };
    for (let i = 0; i < 100 && child.exitCode === null && child.pid !== undefined; i++) {
      if (await redisAnswers(url, 200)) return { url, pid: child.pid, stop };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await stop();
    lastOutput = output.trim().split('\n').slice(-5).join('\n');
  }
  throw new Error(`${command} did not start on a loopback port: ${lastOutput || 'it printed nothing'}`);
}
