/**
 * What one accepted request can add to Redis, measured: the largest request the limits let a user
 * send (16 KiB of content over 20 parts, ids of 128 bytes, 8 extensions of 256 bytes, 16 output
 * modes), through the whole system over real Redis, and the bytes every key of the system's namespace
 * takes before and after it (`MEMORY USAGE` of each key found by `SCAN`). docs/operations.md
 * ("What one request can add to Redis") states the bound asserted here and where the bytes go.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, type TestSystem } from './support/system.ts';

/** The documented bound of one request with one delegation (docs/operations.md). */
const REQUEST_BOUND_BYTES = 144 * 1024;
/** Longest key name a request may make: the namespace, a principal and a 128-byte id, with room. */
const KEY_NAME_BOUND = 400;

let system: TestSystem;
beforeAll(async () => {
  system = await startTestSystem();
});
afterAll(() => system?.stop());

/** `MEMORY USAGE` of every key of the namespace. */
async function footprint(): Promise<Map<string, number>> {
  const keys = new Map<string, number>();
  let cursor = '0';
  do {
    const [next, found] = await system.redis.scan(cursor, 'MATCH', `*${system.namespace}*`, 'COUNT', 1000);
    cursor = next;
    for (const key of found) {
      const bytes = await system.redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0');
      if (typeof bytes === 'number') keys.set(key, bytes);
    }
  } while (cursor !== '0');
  return keys;
}

/** What grew between two footprints, by key family (`supervisor task`, `inventory run`, ...). */
function growth(before: Map<string, number>, after: Map<string, number>) {
  const families = new Map<string, number>();
  let added = 0;
  for (const [key, bytes] of after) {
    const grown = bytes - (before.get(key) ?? 0);
    if (grown === 0) continue;
    added += grown;
    const [, service = '?', rest = ''] = /^\{[^:]+:([^}]+)\}:([^:]+)/.exec(key) ?? [];
    const family = `${service} ${rest}`;
    families.set(family, (families.get(family) ?? 0) + grown);
  }
  for (const [key, bytes] of before) if (!after.has(key)) added -= bytes;
  return { added, families: Object.fromEntries([...families].sort((a, b) => b[1] - a[1])) };
}

const id = (tag: string, bytes = 128) => `${tag}-${randomUUID()}`.padEnd(bytes, 'x');

/**
 * The largest request a user may send: 16 KiB of content over 20 parts — a text the supervisor hands
 * on whole to a worker (a delegation's request is at most 8,000 characters) and the rest in data
 * parts — every id 128 bytes, 8 extensions of 256 bytes, 16 output modes of 128.
 */
function largestRequest() {
  const text = 'Is the blue kettle in stock? '.padEnd(7_900, ' kettle');
  const rest = 16 * 1024 - text.length;
  const filler = (n: number) => ''.padEnd(Math.floor(rest / 19) - 12, `${n}`);
  return {
    jsonrpc: '2.0',
    id: 1,
    method: 'SendMessage',
    params: {
      message: {
        messageId: id('m'),
        contextId: id('c'),
        role: 'ROLE_USER',
        parts: [{ text }, ...Array.from({ length: 19 }, (_, n) => ({ data: { note: filler(n) } }))],
        extensions: Array.from({ length: 8 }, (_, n) => `urn:x-${n}:`.padEnd(256, 'e')),
      },
      configuration: {
        acceptedOutputModes: Array.from({ length: 16 }, (_, n) => `text/x-${n}`.padEnd(128, 'o')),
      },
    },
  };
}

async function send(body: unknown) {
  const { supervisorUrl, token } = system.launched.access;
  const response = await fetch(`${supervisorUrl}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'A2A-Version': '1.0' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as {
    result?: { task?: { status?: { state?: string } } };
    error?: { code: number; message: string };
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 1_000));

describe('what one request can add to Redis', () => {
  it('the largest request the limits allow adds at most the documented bound, and no long key name', async () => {
    // A first request warms what every request shares (the queues' own keys, the registry).
    expect((await send(largestRequest())).error).toBeUndefined();
    await settle();
    const before = await footprint();
    const reply = await send(largestRequest());
    expect(reply.result?.task?.status?.state).toBe('TASK_STATE_COMPLETED');
    await settle();
    const after = await footprint();
    const { added, families } = growth(before, after);
    const measured = JSON.stringify({ added, families });
    // The delegation ran: the worker stored its task too, so the bound covers both hops.
    expect(
      Object.keys(families).some((family) => family.startsWith('inventory task')),
      measured,
    ).toBe(true);
    expect(added, measured).toBeLessThanOrEqual(REQUEST_BOUND_BYTES);
    expect(Math.max(...[...after.keys()].map((key) => key.length))).toBeLessThanOrEqual(KEY_NAME_BOUND);
  });

  it('the review’s request, a 240 KB contextId, is refused and adds nothing', async () => {
    await settle();
    const before = await footprint();
    const reply = await send({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: {
        message: {
          messageId: randomUUID(),
          contextId: 'c'.repeat(240_000),
          role: 'ROLE_USER',
          parts: [{ text: 'Is the blue kettle in stock?' }],
        },
      },
    });
    expect(reply.error).toEqual({
      code: -32602,
      message:
        'message.contextId is 240000 bytes; it may be at most 128 bytes (a UUID is 36). Send a shorter one.',
      data: expect.any(Array),
    });
    await settle();
    const { added, families } = growth(before, await footprint());
    // Background writes (heartbeats, the queues' stalled checks) rewrite keys of their own size.
    expect(Math.abs(added), JSON.stringify(families)).toBeLessThan(1024);
  });
});
