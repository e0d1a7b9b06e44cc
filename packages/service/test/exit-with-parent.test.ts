import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AgentRegistry } from '@switchboard/a2a/registry';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { isRunning, untilGone } from './support/process-state.ts';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
const workdir = mkdtempSync(join(tmpdir(), 'switchboard-exit-with-parent-'));
const support = (name: string) => fileURLToPath(new URL(`./support/${name}`, import.meta.url));
const started: ChildProcess[] = [];
const namespaces: string[] = [];

afterEach(() => {
  // Each child leads its own process group: this takes whatever a failed test left, grandchildren too.
  for (const child of started.splice(0)) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // the group is already gone
    }
  }
});
afterAll(async () => {
  for (const namespace of namespaces) {
    const keys = await redis.keys(`*${namespace}*`);
    if (keys.length > 0) await redis.del(...keys);
  }
  await redis.quit();
  rmSync(workdir, { recursive: true, force: true });
});

function start(script: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [support(script), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    detached: true,
  });
  started.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  /** Resolves with the first match of `pattern` in the output; rejects when the child exits first. */
  const until = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const look = () => {
        const found = pattern.exec(output);
        if (found) resolve(found);
      };
      look();
      child.stdout?.on('data', look);
      void exited.then((code) => reject(new Error(`${script} exited (${code}) first:\n${output}`)));
    });
  return { child, exited, until, output: () => output };
}

/** Resolves with how the child ended, or with `still running` once `withinMs` passed. */
const endOf = (exited: Promise<number | string>, withinMs: number) =>
  Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('still running'), withinMs))]);

/** A free port below the ephemeral range, which no outgoing connection takes before the service listens. */
async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

describe('a service whose launcher is killed with SIGKILL', () => {
  it.each([
    { output: 'piped to the launcher', toFile: false },
    { output: 'written to a file', toFile: true },
  ])(
    'with its output $output, drains as on SIGTERM and exits, and the registry no longer lists it',
    async ({ toFile }) => {
      const namespace = `exit-${randomUUID().slice(0, 8)}`;
      namespaces.push(namespace);
      const logFile = join(workdir, `${namespace}.log`);
      const launcher = start('launcher-process.ts', [], {
        ...(toFile ? { LOG_FILE: logFile } : {}),
        REDIS_URL: redisUrl,
        PORT: String(await freePort()),
        SWITCHBOARD_NAMESPACE: namespace,
        SWITCHBOARD_SERVICE_TOKEN: 'svc-exit-with-parent-test',
        SWITCHBOARD_SPAN_FILE: join(workdir, `${namespace}.spans.jsonl`),
        SWITCHBOARD_DRAIN_MS: '2000',
      });
      const pid = Number((await launcher.until(/^service (\d+)$/m))[1]);
      const registry = new AgentRegistry({ redis, namespace });
      expect((await registry.list()).map((entry) => entry.name)).toEqual(['echo']);

      launcher.child.kill('SIGKILL');
      expect(await launcher.exited).toBe('SIGKILL');
      expect(await untilGone(pid, 30_000), `the service ${pid} still runs 30 s after its launcher died`).toBe(
        true,
      );
      expect(await registry.list()).toEqual([]);
      if (toFile) {
        // What it logged after its launcher died: the drain, to the end.
        const log = readFileSync(logFile, 'utf8');
        expect(log).toContain('echo draining');
        expect(log).toContain('echo stopped');
      }
    },
    60_000,
  );
});

describe('exitWithParent', () => {
  it('does not keep a process alive: one whose work is done exits while its parent still runs', async () => {
    const child = start('parent-channel-child.ts', ['done']);
    await child.until(/started/);
    expect(await endOf(child.exited, 20_000), child.output()).toBe(0);
  }, 30_000);

  it('ends a drain that hangs at the deadline, with exit code 1 and the reason', async () => {
    const child = start('parent-channel-child.ts', ['hangs'], { DEADLINE_MS: '500' });
    await child.until(/started/);
    expect(child.child.pid && isRunning(child.child.pid)).toBe(true);
    child.child.disconnect();
    expect(await endOf(child.exited, 20_000), child.output()).toBe(1);
    expect(child.output()).toContain('the drain did not end within 500 ms');
  }, 30_000);
});
