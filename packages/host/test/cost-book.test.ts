import { randomUUID } from 'node:crypto';
import { type AgentCost, costOf, OTHER_AGENTS } from '@switchboard/agent';
import { createRedisConnection, type RedisConnection } from '@switchboard/redis';
import { afterAll, describe, expect, it } from 'vitest';
import { type CostBook, MAX_BOOK_AGENTS, MemoryCostBook } from '../src/index.ts';
import { RedisCostBook } from '../src/redis.ts';

const redis = createRedisConnection({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
const prefixes: string[] = [];
afterAll(async () => {
  for (const prefix of prefixes) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  }
  await redis.quit();
});

/** The connection, counting the scripts sent through it (EVAL and EVALSHA). */
function counting(connection: RedisConnection) {
  const sent = { scripts: 0 };
  const counted = new Proxy(connection, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if ((key === 'eval' || key === 'evalsha') && typeof value === 'function') {
        return (...args: unknown[]) => {
          sent.scripts++;
          return value.apply(target, args);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { counted, sent };
}

const entry = (agent: string, n: number): AgentCost => ({
  agent,
  tokensIn: 10 * n,
  tokensOut: n,
  modelMs: 100 * n,
  toolMs: 7 * n,
  queueWaitMs: 3 * n,
  hops: 1,
});

const books: [string, () => CostBook][] = [
  ['in memory', () => new MemoryCostBook()],
  [
    'on Redis',
    () => {
      const prefix = `{test:${randomUUID()}}`;
      prefixes.push(prefix);
      return new RedisCostBook({ redis, prefix, retentionDays: 2 });
    },
  ],
];

describe.each(books)('the cost book %s', (_name, make) => {
  it('adds up each day’s requests per agent, newest day first, and leaves out days with none', async () => {
    const book = make();
    await book.record({
      taskId: 't1',
      at: new Date('2026-12-03T23:59:00Z'),
      cost: costOf([entry('supervisor', 1), entry('orders', 2)]),
    });
    await book.record({
      taskId: 't2',
      at: new Date('2026-12-04T00:01:00Z'),
      cost: costOf([entry('supervisor', 3)]),
    });
    await book.record({
      taskId: 't3',
      at: new Date('2026-12-04T10:00:00Z'),
      cost: costOf([entry('supervisor', 1), entry('orders', 1)]),
    });
    const days = await book.days({ from: '2026-12-01', to: '2026-12-04' });
    expect(days.map((day) => [day.day, day.requests])).toEqual([
      ['2026-12-04', 2],
      ['2026-12-03', 1],
    ]);
    expect(days[0]?.agents).toEqual([{ ...entry('orders', 1) }, { ...entry('supervisor', 4), hops: 2 }]);
    expect(days[0]?.total).toEqual({
      ...costOf([entry('orders', 1), entry('supervisor', 4)]).total,
      hops: 3,
    });
  });

  it(`names at most ${MAX_BOOK_AGENTS} agents a day, adding up the rest as one`, async () => {
    const book = make();
    const at = new Date('2026-12-04T12:00:00Z');
    for (let batch = 0; batch < 4; batch++) {
      const agents = Array.from({ length: 60 }, (_, i) => entry(`agent-${batch * 60 + i}`, 1));
      await book.record({ taskId: `t${batch}`, at, cost: costOf(agents) });
    }
    const [day] = await book.days({ from: '2026-12-04', to: '2026-12-04' });
    expect(day?.agents).toHaveLength(MAX_BOOK_AGENTS + 1);
    expect(day?.agents.find((agent) => agent.agent === OTHER_AGENTS)?.hops).toBe(240 - MAX_BOOK_AGENTS);
    expect(day?.total.hops).toBe(240);
  });
});

describe('the cost book on Redis', () => {
  it('keeps one hash per day, which expires after the retention', async () => {
    const prefix = `{test:${randomUUID()}}`;
    prefixes.push(prefix);
    const book = new RedisCostBook({ redis, prefix, retentionDays: 2 });
    await book.record({
      taskId: 't',
      at: new Date('2026-12-04T12:00:00Z'),
      cost: costOf([entry('orders', 1)]),
    });
    await book.flush();
    expect(await redis.keys(`${prefix}*`)).toEqual([`${prefix}:costs:2026-12-04`]);
    const ttl = await redis.ttl(`${prefix}:costs:2026-12-04`);
    expect(ttl).toBeGreaterThan(86_400);
    expect(ttl).toBeLessThanOrEqual(2 * 86_400);
  });

  it('adds requests up in the process and writes them as one script a day: another replica sees them after flushEveryMs', async () => {
    const prefix = `{test:${randomUUID()}}`;
    prefixes.push(prefix);
    const { counted, sent } = counting(redis);
    const here = new RedisCostBook({ redis: counted, prefix, flushEveryMs: 300 });
    const there = new RedisCostBook({ redis, prefix });
    const day = { from: '2026-12-04', to: '2026-12-04' };
    for (let n = 0; n < 50; n++) {
      await here.record({
        taskId: `t${n}`,
        at: new Date('2026-12-04T12:00:00Z'),
        cost: costOf([entry('orders', 1)]),
      });
    }
    // Not written yet: the other replica reads nothing, and no script ran for the 50.
    expect(await there.days(day)).toEqual([]);
    await expect.poll(async () => (await there.days(day))[0]?.requests, { timeout: 5_000 }).toBe(50);
    expect((await there.days(day))[0]?.agents).toEqual([{ ...entry('orders', 50), hops: 50 }]);
    // One script for the 50 (a first EVALSHA that Redis lacks is followed by its EVAL: two calls).
    expect(sent.scripts).toBeLessThanOrEqual(2);
    // What is recorded after is written by close(), at once.
    await here.record({
      taskId: 't50',
      at: new Date('2026-12-04T12:00:00Z'),
      cost: costOf([entry('orders', 1)]),
    });
    await here.close();
    expect((await there.days(day))[0]?.requests).toBe(51);
  });

  it('refuses options it cannot work with, saying what to pass', () => {
    expect(() => new RedisCostBook({ redis, prefix: '' })).toThrow(
      /needs a redis connection and a key prefix/,
    );
    expect(() => new RedisCostBook({ redis, prefix: 'p', retentionDays: 0 })).toThrow(/whole number of days/);
    expect(() => new RedisCostBook({ redis, prefix: 'p', flushEveryMs: -1 })).toThrow(
      /flushEveryMs must be a whole number of milliseconds/,
    );
  });
});
