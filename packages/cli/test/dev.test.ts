import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRedisConnection } from '@switchboard/redis';
import { type GroupProcess, spawnGroup } from '@switchboard/test-processes';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { closedPort, hasStack, switchboard } from './support.ts';

const bin = fileURLToPath(new URL('../bin/switchboard.mjs', import.meta.url));
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = createRedisConnection({ url: redisUrl });
const namespaces: string[] = [];
/** Every `switchboard dev` started: each leads its own process group, which goes whole after its test. */
const started: GroupProcess[] = [];
/** How a user stops `switchboard dev`: Ctrl-C, and it has 20 s to stop the system. */
const CTRL_C = { signal: 'SIGINT', graceMs: 20_000 } as const;
afterEach(async () => {
  await Promise.all(started.splice(0).map((dev) => dev.stop(CTRL_C)));
});
afterAll(async () => {
  for (const namespace of namespaces) {
    const keys = await redis.keys(`*${namespace}*`);
    if (keys.length > 0) await redis.del(...keys);
  }
  await redis.quit();
});

/** How long `switchboard dev` may take to start the system, on a busy machine. */
const DEV_READY_MS = 60_000;

/**
 * Starts `switchboard dev` in a fresh directory and waits until it says the system runs (at most
 * 60 s); with `ipc`, over an IPC channel, as a test runner or another tool might. It leads its own
 * process group, so the test's teardown reaches the services it started too.
 */
async function startDev(args: string[], { ipc = false }: { ipc?: boolean } = {}) {
  const cwd = mkdtempSync(join(tmpdir(), 'switchboard-dev-'));
  const dev = spawnGroup({ args: [bin, 'dev', ...args], cwd, env: process.env, ipc, name: 'dev' });
  started.push(dev);
  await dev.waitForLine(/Press Ctrl-C to stop\./, { timeoutMs: DEV_READY_MS, describe: 'that it runs' });
  return { cwd, dev };
}

/** The pid of one service that `switchboard dev` (pid `dev`) started, read from /proc (Linux). */
function servicePid(dev: number, service: string): number {
  const children = readFileSync(`/proc/${dev}/task/${dev}/children`, 'utf8').trim().split(/\s+/).map(Number);
  const pid = children.find((child) =>
    readFileSync(`/proc/${child}/cmdline`, 'utf8').includes(
      `examples/customer-service/${service}/src/main.ts`,
    ),
  );
  if (pid === undefined) throw new Error(`dev (${dev}) has no ${service} process`);
  return pid;
}

/**
 * Listens on a loopback port as soon as it is free (a service that just died still held it),
 * hanging up on whoever connects (the launcher polls it for readiness).
 */
async function holdPort(port: number): Promise<Server> {
  for (;;) {
    const server = createServer((socket) => socket.destroy());
    const held = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (held) return server;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('switchboard dev', () => {
  it('without Redis, runs every agent in one process and says so; ask and approvals work the same', async () => {
    const port = await closedPort();
    // 192.0.2.1 is TEST-NET-1: nothing answers there, and no redis-server can be started for it.
    const { cwd, dev } = await startDev(['--redis-url', 'redis://192.0.2.1:6379', '--port', String(port)]);
    expect(dev.output()).toContain(
      'Switchboard is running in one process, because Redis is not available (nothing answers at 192.0.2.1:6379, and it is not this machine)',
    );
    expect(existsSync(join(cwd, '.switchboard/dev.json'))).toBe(true);
    // It prints where the operators' console is, and the console is there.
    const { supervisorUrl } = JSON.parse(readFileSync(join(cwd, '.switchboard/dev.json'), 'utf8')) as {
      supervisorUrl: string;
    };
    expect(dev.output()).toContain(`console     ${supervisorUrl}/console`);
    expect((await fetch(`${supervisorUrl}/console/sign-in`)).status).toBe(200);

    const asked = await switchboard(['ask', 'Please refund order A10086, it arrived broken.'], {}, { cwd });
    expect(asked.code).toBe(3);
    const id = /approvals approve (apr_[a-f0-9]+)/.exec(asked.stdout)?.[1] ?? '';
    const approved = await switchboard(['approvals', 'approve', id], {}, { cwd });
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain('refunded: yes');

    expect(await dev.stop(CTRL_C)).toBe(0);
    expect(dev.output()).toContain('Stopped.');
    expect(existsSync(join(cwd, '.switchboard/dev.json'))).toBe(false);
  });

  it('with Redis, starts each service as a process with its logs prefixed, and stops them all', async () => {
    const namespace = `devtest-${Date.now().toString(36)}`;
    namespaces.push(namespace);
    const port = await closedPort();
    const { cwd, dev } = await startDev([
      '--port',
      String(port),
      '--namespace',
      namespace,
      '--redis-url',
      redisUrl,
    ]);
    expect(dev.output()).toContain(`Switchboard is running one process per service, on Redis at ${redisUrl}`);
    for (const service of ['orders', 'inventory', 'comms', 'supervisor']) {
      expect(dev.output()).toMatch(new RegExp(`\\[${service} *\\] info +${service} ready`));
    }
    const asked = await switchboard(['ask', 'Is the blue kettle in stock?'], {}, { cwd });
    expect(asked.code).toBe(0);
    expect(asked.stdout).toContain('Blue Enamel Kettle');
    // As in deployment, a worker takes service callers only: a user's token sent to it directly is
    // refused, while the supervisor (above) still answers that user.
    const { token, adminToken } = JSON.parse(readFileSync(join(cwd, '.switchboard/dev.json'), 'utf8')) as {
      token: string;
      adminToken: string;
    };
    for (const bearer of [token, adminToken]) {
      // The bundled workers take the ports after the supervisor's: inventory is the second.
      const direct = await fetch(`http://127.0.0.1:${port + 2}/a2a/jsonrpc`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${bearer}`,
          'Content-Type': 'application/json',
          'A2A-Version': '1.0',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: {
            message: {
              messageId: 'm-1',
              role: 'ROLE_USER',
              parts: [{ text: 'Reserve 5 units of SKU-1002' }],
            },
          },
        }),
      });
      expect(direct.status).toBe(401);
      expect(JSON.stringify(await direct.json())).toContain(
        'This agent takes requests from services only (its team’s supervisor); send your request to the supervisor.',
      );
    }
    expect(await dev.stop(CTRL_C)).toBe(0);
    for (const service of ['orders', 'inventory', 'comms', 'supervisor']) {
      expect(dev.output()).toMatch(new RegExp(`\\[${service} *\\] info +${service} stopped`));
    }
  }, 90_000);
});

describe('switchboard dev, when things go wrong', () => {
  it('stops the system when the process that started it goes away (its IPC channel closes)', async () => {
    const port = await closedPort();
    const { cwd, dev } = await startDev(['--in-process', '--port', String(port)], { ipc: true });
    dev.disconnect();
    expect(await dev.exited).toBe(0);
    expect(dev.output()).toContain('Stopped.');
    expect(existsSync(join(cwd, '.switchboard/dev.json'))).toBe(false);
  });

  it('a crashed service is reported and restarted; a restart that cannot get ready stops the system, and dev exits 1 saying why', async () => {
    const namespace = `devcrash-${Date.now().toString(36)}`;
    namespaces.push(namespace);
    const port = await closedPort();
    const { cwd, dev } = await startDev([
      '--port',
      String(port),
      '--namespace',
      namespace,
      '--redis-url',
      redisUrl,
    ]);
    process.kill(servicePid(dev.pid, 'orders'), 'SIGKILL');
    // Orders' port is taken before its restart (0.5 s later), so the restart cannot listen.
    const blocker = await holdPort(port + 1);
    try {
      expect(await dev.exited).toBe(1);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
    const output = dev.output();
    expect(output).toContain(
      '[system    ] orders stopped unexpectedly (killed by SIGKILL); restarting it in 0.5 s.',
    );
    expect(output).toMatch(
      /\[system {4}\] orders keeps crashing: it stopped again before it was ready \(exit code \d+\)\. Stopping the system\./,
    );
    expect(output).toContain('[system    ] Its last log lines:');
    expect(output).toContain('EADDRINUSE');
    expect(output).toContain(
      'Stopped, because orders kept crashing: fix what its last log lines above show, then run "switchboard dev" again.',
    );
    for (const service of ['inventory', 'comms', 'supervisor']) {
      expect(output).toMatch(new RegExp(`\\[${service} *\\] info +${service} stopped`));
    }
    expect(existsSync(join(cwd, '.switchboard/dev.json'))).toBe(false);
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
