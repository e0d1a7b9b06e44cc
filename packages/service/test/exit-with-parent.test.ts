import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AgentRegistry } from '@switchboard/delegate';
import { createRedisConnection } from '@switchboard/redis';
import { freePort, type GroupProcess, spawnGroup } from '@switchboard/test-processes';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { serviceKeyEnv } from './support/service-keys.ts';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = createRedisConnection({ url: redisUrl });
const workdir = mkdtempSync(join(tmpdir(), 'switchboard-exit-with-parent-'));
const support = (name: string) => fileURLToPath(new URL(`./support/${name}`, import.meta.url));
const started: GroupProcess[] = [];
const namespaces: string[] = [];

afterEach(async () => {
  // Each child leads its own process group: this takes whatever a failed test left, grandchildren too.
  await Promise.all(started.splice(0).map((child) => child.kill()));
});
afterAll(async () => {
  for (const namespace of namespaces) {
    const keys = await redis.keys(`*${namespace}*`);
    if (keys.length > 0) await redis.del(...keys);
  }
  await redis.quit();
  rmSync(workdir, { recursive: true, force: true });
});

/** Starts `support/<script>` in its own process group, with an IPC channel as a launcher gives it. */
function start(script: string, args: string[], env: NodeJS.ProcessEnv = {}): GroupProcess {
  const child = spawnGroup({
    args: [support(script), ...args],
    env: { ...process.env, ...env },
    ipc: true,
    name: script,
  });
  started.push(child);
  return child;
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
        ...serviceKeyEnv('echo'),
        SWITCHBOARD_SPAN_FILE: join(workdir, `${namespace}.spans.jsonl`),
        SWITCHBOARD_DRAIN_MS: '2000',
      });
      const pid = Number(
        (await launcher.waitForLine(/^service (\d+)$/, { describe: 'the pid of its service' }))[1],
      );
      const registry = new AgentRegistry({ redis, namespace });
      expect((await registry.list()).map((entry) => entry.name)).toEqual(['echo']);

      launcher.signal('SIGKILL');
      expect(await launcher.exited).toBe('SIGKILL');
      // The service is the one left of the launcher's process group.
      expect(
        await launcher.untilNoneLeft({ withinMs: 30_000 }),
        `the service ${pid} still runs 30 s after its launcher died`,
      ).toEqual([]);
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

describe('a service whose launcher is killed while the service is still starting', () => {
  it('notices at once and exits, instead of running on without a launcher once it has started', async () => {
    const namespace = `exit-${randomUUID().slice(0, 8)}`;
    const logFile = join(workdir, `${namespace}.log`);
    const launcher = start('launcher-process.ts', [], {
      ANNOUNCE: 'spawned',
      LOG_FILE: logFile,
      // Nothing answers there: the service spends its start waiting for Redis.
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
      PORT: String(await freePort()),
      SWITCHBOARD_NAMESPACE: namespace,
      ...serviceKeyEnv('echo'),
      SWITCHBOARD_SPAN_FILE: join(workdir, `${namespace}.spans.jsonl`),
    });
    await launcher.waitForLine(/^service (\d+)$/, { describe: 'the pid of its service' });
    launcher.signal('SIGKILL');
    expect(await launcher.exited).toBe('SIGKILL');
    expect(await launcher.untilNoneLeft({ withinMs: 30_000 })).toEqual([]);
    const log = readFileSync(logFile, 'utf8');
    expect(log).toContain('went away while it was starting');
    expect(log).not.toContain('failed to start');
  }, 60_000);
});

describe('exitWithParent', () => {
  it('does not keep a process alive: one whose work is done exits while its parent still runs', async () => {
    const child = start('parent-channel-child.ts', ['done']);
    await child.waitForLine(/started/);
    expect(await child.waitForExit({ timeoutMs: 20_000 }), child.output()).toBe(0);
  }, 30_000);

  it('ends a drain that hangs at the deadline, with exit code 1 and the reason', async () => {
    const child = start('parent-channel-child.ts', ['hangs'], { DEADLINE_MS: '500' });
    await child.waitForLine(/started/);
    expect(child.pidsLeft()).toEqual([child.pid]);
    child.disconnect();
    expect(await child.waitForExit({ timeoutMs: 20_000 }), child.output()).toBe(1);
    expect(child.output()).toContain('the drain did not end within 500 ms');
  }, 30_000);
});
