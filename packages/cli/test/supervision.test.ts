import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultQueueAddress } from '@switchboard/a2a-bullmq';
import { createRedisConnection } from '@switchboard/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LaunchedSystem, launchSystem } from '../src/system/launch-system.ts';
import { describeSystemEvent, type SystemEvent } from '../src/system/system-event.ts';
import { loadTeam } from '../src/team/load-team.ts';
import { closedPort, switchboard } from './support.ts';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = createRedisConnection({ url: redisUrl });
const namespace = `supervise-${Date.now().toString(36)}`;
const events: SystemEvent[] = [];
let system: LaunchedSystem;

/** Resolves with the first event that matches, waiting for it as long as the test may run. */
async function nextEvent<K extends SystemEvent['kind']>(kind: K, after = 0) {
  for (;;) {
    const event = events.slice(after).find((entry) => entry.kind === kind);
    if (event) return event as Extract<SystemEvent, { kind: K }>;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Kills a service the way a crash would: from outside, so the launcher did not ask for it. */
function crash(name: string): number {
  const pid = system.services.get(name)?.child.pid;
  if (pid === undefined) throw new Error(`${name} has no process`);
  process.kill(pid, 'SIGKILL');
  return pid;
}

beforeAll(async () => {
  await (await loadTeam()).team.seed?.({ redis, namespace });
  system = await launchSystem({
    redisUrl,
    namespace,
    ports: {
      supervisor: await closedPort(),
      orders: await closedPort(),
      inventory: await closedPort(),
      comms: await closedPort(),
    },
    baseEnv: process.env,
    env: {
      SWITCHBOARD_MODEL: 'offline',
      SWITCHBOARD_SPAN_FILE: join(mkdtempSync(join(tmpdir(), 'switchboard-supervise-')), 'spans.jsonl'),
    },
    // A first restart slow enough to send a request while orders is down; the second crash gives up.
    restart: { initialDelayMs: 3_000, maxCrashes: 2, windowMs: 120_000 },
    onEvent: (event) => events.push(event),
  });
}, 90_000);

afterAll(async () => {
  await system?.stop();
  const keys = await redis.keys(`*${namespace}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

describe('a supervised system', () => {
  it('refuses a restart policy that cannot work, before starting anything', async () => {
    await expect(launchSystem({ redisUrl, namespace, restart: { maxCrashes: 0 } })).rejects.toThrow(
      'restart.maxCrashes must be a whole number of at least 1, got 0.',
    );
    await expect(launchSystem({ redisUrl, namespace, restart: { initialDelayMs: -1 } })).rejects.toThrow(
      'restart.initialDelayMs must be a positive number of milliseconds, got -1.',
    );
  });

  it('reports a service killed with SIGKILL at once, restarts it, and answers a request sent while it was down', async () => {
    const killed = crash('orders');
    const crashed = await nextEvent('crashed');
    expect(crashed).toMatchObject({ service: 'orders', exit: 'SIGKILL', restartInMs: 3_000 });
    expect(crashed.lastLines.map((logged) => logged.line).join('\n')).toContain('orders ready');
    expect(describeSystemEvent(crashed)[0]).toBe(
      'orders stopped unexpectedly (killed by SIGKILL); restarting it in 3 s.',
    );

    const asked = switchboard(['ask', 'Where is my order A10086 and when will it arrive?'], {
      SWITCHBOARD_URL: system.access.supervisorUrl,
      SWITCHBOARD_TOKEN: system.access.token,
    });
    // The request reaches the orders queue while no orders process is there to take it.
    const { queue, prefix } = defaultQueueAddress('orders', namespace);
    while ((await redis.llen(`${prefix}:${queue}:wait`)) === 0)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events.map((event) => event.kind)).toEqual(['crashed']);

    const run = await asked;
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('estimated delivery: 2026-12-01');
    const restarted = await nextEvent('restarted');
    expect(restarted).toMatchObject({ service: 'orders', crashes: 1 });
    expect(system.services.get('orders')?.child.pid).toBe(restarted.pid);
    expect(restarted.pid).not.toBe(killed);
  }, 60_000);

  it('stops the whole system when a service keeps crashing, naming it, why, and its last log lines', async () => {
    const seen = events.length;
    crash('orders');
    const failure = await system.failed;
    expect(failure).toEqual(await nextEvent('gave-up', seen));
    expect(failure).toMatchObject({
      service: 'orders',
      reason: 'crashed 2 times within 120 s (last: killed by SIGKILL)',
    });
    expect(failure.lastLines.map((logged) => logged.line).join('\n')).toContain('orders ready');
    expect(describeSystemEvent(failure)[0]).toBe(
      'orders keeps crashing: it crashed 2 times within 120 s (last: killed by SIGKILL). Stopping the system.',
    );
    const exits = await Promise.all([...system.services.values()].map((service) => service.exited));
    expect(exits).toHaveLength(4);
    for (const service of ['supervisor', 'inventory', 'comms'])
      expect(await system.services.get(service)?.exited).toBe(0);
  }, 60_000);
});
