import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRedisConnection } from '@switchboard/redis';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LaunchedSystem, launchSystem } from '../src/system/launch-system.ts';
import { loadTeam } from '../src/team/load-team.ts';
import { closedPort, switchboard } from './support.ts';

/**
 * What the system writes to Redis, read back after a short scenario: two systems, each on its own
 * namespace, in a logical database of their own (so every key in it is theirs, whatever other tests
 * do at the same time on database 0).
 */
const baseUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const run = Date.now().toString(36);
const namespaces = [`hygiene-a-${run}`, `hygiene-b-${run}`] as const;
/** Set on the database this test took, so no other run of it takes the same one. */
const CLAIM = 'redis-hygiene-test:claim';

let redis: Redis;
let redisUrl: string;
const systems: LaunchedSystem[] = [];

/** A logical database (1-15) with no key in it, claimed for this test. */
async function claimEmptyDatabase(): Promise<number> {
  const probe = createRedisConnection({ url: baseUrl });
  try {
    for (let db = 15; db >= 1; db--) {
      await probe.select(db);
      if ((await probe.dbsize()) > 0) continue;
      if ((await probe.set(CLAIM, run, 'EX', 600, 'NX')) === 'OK') return db;
    }
  } finally {
    probe.disconnect();
  }
  throw new Error('No empty Redis logical database (1-15) is free for the hygiene test.');
}

/** Runs the CLI against one system. */
const cli = (system: LaunchedSystem, args: string[]) =>
  switchboard(args, {
    SWITCHBOARD_URL: system.access.supervisorUrl,
    SWITCHBOARD_TOKEN: system.access.token,
    SWITCHBOARD_ADMIN_TOKEN: system.access.adminToken,
  });

/** Every key of the database with its type and TTL (ms; -1: none), read with SCAN. */
async function everyKey(): Promise<{ key: string; type: string; ttl: number }[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'COUNT', 500);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  const found = await Promise.all(
    keys
      .filter((key) => key !== CLAIM)
      .map(async (key) => ({ key, type: await redis.type(key), ttl: await redis.pttl(key) })),
  );
  // A key can expire between TYPE and PTTL (-2 then): it is gone, not kept forever.
  return found
    .filter((entry) => entry.type !== 'none' && entry.ttl !== -2)
    .sort((a, b) => a.key.localeCompare(b.key));
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Keys that live without a TTL on purpose, each with what keeps it bounded:
 * - the shop (`{ns}:shop:…`): the business's own records, the shop's database; nothing prunes them;
 * - a BullMQ queue's bookkeeping (`{ns:agent}:a2a.<agent>:…`): its `meta` hash and `id` counter (one
 *   each per queue), its `events` stream (trimmed by BullMQ to about 10 000 entries), and finished
 *   jobs (a hash each, named by request id) with their `completed` / `failed` sets, which BullMQ
 *   prunes each time a job finishes (older than 60 s or past 1 000 completed, older than 24 h or past
 *   10 000 failed: the transport's removeOnComplete / removeOnFail).
 */
function withoutTtlOnPurpose(key: string, namespace: string): string | undefined {
  const ns = escapeRegExp(namespace);
  if (new RegExp(`^\\{${ns}\\}:shop:`).test(key)) return 'shop data';
  if (
    new RegExp(`^\\{${ns}:[a-z-]+\\}:a2a\\.[a-z-]+:(meta|id|events|completed|failed|[0-9a-f-]{36})$`).test(
      key,
    )
  ) {
    return 'BullMQ queue bookkeeping, trimmed by BullMQ';
  }
  return undefined;
}

beforeAll(async () => {
  const db = await claimEmptyDatabase();
  redisUrl = `${baseUrl.replace(/\/\d*$/, '')}/${db}`;
  redis = createRedisConnection({ url: redisUrl });
  const spans = join(mkdtempSync(join(tmpdir(), 'switchboard-hygiene-')), 'spans.jsonl');
  for (const namespace of namespaces) {
    await (await loadTeam()).team.seed?.({ redis, namespace });
    systems.push(
      await launchSystem({
        redisUrl,
        namespace,
        ports: {
          supervisor: await closedPort(),
          orders: await closedPort(),
          inventory: await closedPort(),
          comms: await closedPort(),
        },
        baseEnv: process.env,
        env: { SWITCHBOARD_MODEL: 'offline', SWITCHBOARD_SPAN_FILE: spans },
      }),
    );
  }
  // The scenario, on each system: a question a worker answers over the queue, and a refund that
  // waits for an operator's approval, approved.
  for (const system of systems) {
    const asked = await cli(system, ['ask', 'Where is my order A10086 and when will it arrive?']);
    expect(asked.code, asked.stderr).toBe(0);
    const refund = await cli(system, ['ask', 'Please refund order A10086']);
    expect(refund.code, refund.stdout + refund.stderr).toBe(3);
    const approval = /switchboard approvals approve (apr_[0-9a-f]+)/.exec(refund.stdout)?.[1] ?? '';
    const approved = await cli(system, ['approvals', 'approve', approval]);
    expect(approved.code, approved.stderr).toBe(0);
  }
}, 240_000);

afterAll(async () => {
  await Promise.all(systems.map((system) => system.stop()));
  if (redis) {
    const keys = (await everyKey()).map((entry) => entry.key);
    if (keys.length > 0) await redis.del(...keys);
    await redis.del(CLAIM);
    await redis.quit();
  }
}, 60_000);

describe('what the system keeps in Redis', () => {
  it('writes every key under its own namespace, two systems side by side', async () => {
    const outside = (await everyKey())
      .map((entry) => entry.key)
      .filter((key) =>
        namespaces.every(
          (ns) => !key.startsWith(`${ns}:`) && !key.startsWith(`{${ns}}:`) && !key.startsWith(`{${ns}:`),
        ),
      );
    expect(outside).toEqual([]);
    for (const ns of namespaces) {
      const own = (await everyKey()).filter((entry) => entry.key.includes(ns)).map((entry) => entry.key);
      expect(
        own.some((key) => key.startsWith(`${ns}:reply:`)),
        `${ns} has its reply streams`,
      ).toBe(true);
    }
  });

  it('gives every key a TTL, but the shop’s records and BullMQ’s own trimmed bookkeeping', async () => {
    const keys = await everyKey();
    expect(keys.length).toBeGreaterThan(20);
    const forever = keys
      .filter((entry) => entry.ttl < 0)
      .filter((entry) => !namespaces.some((ns) => withoutTtlOnPurpose(entry.key, ns)))
      .map((entry) => `${entry.key} (${entry.type})`);
    expect(forever).toEqual([]);
    // What the scenario made is there, and expires: tasks, conversations, the registry, limits.
    for (const ns of namespaces) {
      const expiring = keys.filter((entry) => entry.ttl > 0).map((entry) => entry.key);
      for (const pattern of [
        `{${ns}:supervisor}:task:`,
        `{${ns}:orders}:task:`,
        `{${ns}:supervisor}:run:`,
        `{${ns}:registry}:instances`,
        `{${ns}:supervisor}:limit:rate:user:`,
        `{${ns}:supervisor}:approval:`,
      ]) {
        expect(
          expiring.some((key) => key.startsWith(pattern)),
          `a key starting ${pattern} with a TTL`,
        ).toBe(true);
      }
    }
  });
});
