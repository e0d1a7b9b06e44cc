import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { closedPort, hasStack, switchboard } from './support.ts';

const bin = fileURLToPath(new URL('../bin/switchboard.mjs', import.meta.url));
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
const namespaces: string[] = [];
afterAll(async () => {
  for (const namespace of namespaces) {
    const keys = await redis.keys(`*${namespace}*`);
    if (keys.length > 0) await redis.del(...keys);
  }
  await redis.quit();
});

/** Starts `switchboard dev` in a fresh directory and waits until it says the system runs. */
async function startDev(args: string[], env: Record<string, string> = {}) {
  const cwd = mkdtempSync(join(tmpdir(), 'switchboard-dev-'));
  const child: ChildProcess = spawn(process.execPath, [bin, 'dev', ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  for (let i = 0; i < 240 && !output.includes('Press Ctrl-C to stop.'); i++) {
    if (child.exitCode !== null) throw new Error(`dev exited:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    cwd,
    output: () => output,
    stop: async () => {
      child.kill('SIGINT');
      return exited;
    },
  };
}

describe('switchboard dev', () => {
  it('without Redis, runs every agent in one process and says so; ask and approvals work the same', async () => {
    const port = await closedPort();
    // 192.0.2.1 is TEST-NET-1: nothing answers there, and no redis-server can be started for it.
    const dev = await startDev(['--redis-url', 'redis://192.0.2.1:6379', '--port', String(port)]);
    expect(dev.output()).toContain(
      'Switchboard is running in one process, because Redis is not available (nothing answers at 192.0.2.1:6379, and it is not this machine)',
    );
    expect(existsSync(join(dev.cwd, '.switchboard/dev.json'))).toBe(true);

    const asked = await switchboard(
      ['ask', 'Please refund order A10086, it arrived broken.'],
      {},
      { cwd: dev.cwd },
    );
    expect(asked.code).toBe(3);
    const id = /approvals approve (apr_[a-f0-9]+)/.exec(asked.stdout)?.[1] ?? '';
    const approved = await switchboard(['approvals', 'approve', id], {}, { cwd: dev.cwd });
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain('refunded: yes');

    expect(await dev.stop()).toBe(0);
    expect(dev.output()).toContain('Stopped.');
    expect(existsSync(join(dev.cwd, '.switchboard/dev.json'))).toBe(false);
  });

  it('with Redis, starts each service as a process with its logs prefixed, and stops them all', async () => {
    const namespace = `devtest-${Date.now().toString(36)}`;
    namespaces.push(namespace);
    const port = await closedPort();
    const dev = await startDev(['--port', String(port), '--namespace', namespace, '--redis-url', redisUrl]);
    expect(dev.output()).toContain(`Switchboard is running one process per service, on Redis at ${redisUrl}`);
    for (const service of ['orders', 'inventory', 'comms', 'supervisor']) {
      expect(dev.output()).toMatch(new RegExp(`\\[${service} *\\] info +${service} ready`));
    }
    const asked = await switchboard(['ask', 'Is the blue kettle in stock?'], {}, { cwd: dev.cwd });
    expect(asked.code).toBe(0);
    expect(asked.stdout).toContain('Blue Enamel Kettle');
    expect(await dev.stop()).toBe(0);
    for (const service of ['orders', 'inventory', 'comms', 'supervisor']) {
      expect(dev.output()).toMatch(new RegExp(`\\[${service} *\\] info +${service} stopped`));
    }
  }, 90_000);
});

describe('switchboard seed', () => {
  it('loads the shop once, adds nothing when run again, and names the bad path of a broken fixture', async () => {
    const namespace = `seedtest-${Date.now().toString(36)}`;
    namespaces.push(namespace);
    const env = { REDIS_URL: redisUrl, SWITCHBOARD_NAMESPACE: namespace };
    const first = await switchboard(['seed', '--json'], env);
    expect(first.code).toBe(0);
    const counts = JSON.parse(first.stdout) as { orders: number; inserted: number };
    expect(counts.orders).toBeGreaterThan(0);
    expect(counts.inserted).toBeGreaterThan(0);
    const again = await switchboard(['seed'], env);
    expect(again.stdout).toContain('0 records were new');

    const dir = mkdtempSync(join(tmpdir(), 'switchboard-seed-'));
    const broken = join(dir, 'shop.json');
    writeFileSync(broken, JSON.stringify({ customers: [], products: [], orders: [{ id: '12345' }] }));
    const bad = await switchboard(['seed', '--file', broken], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('The fixture is not valid');
    expect(bad.stderr).toContain('orders[0]');
    expect(hasStack(bad.stderr)).toBe(false);
  });

  it('says when Redis does not answer', async () => {
    const port = await closedPort();
    const run = await switchboard(['seed'], { REDIS_URL: `redis://127.0.0.1:${port}` });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Redis does not answer at redis://127.0.0.1:${port}`);
  });
});
