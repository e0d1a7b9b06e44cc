import { randomUUID } from 'node:crypto';
import { type AgentRunResult, type Principal, parseToolResult, silentLogger } from '@switchboard/agent';
import { createRedisConnection } from '@switchboard/redis';
import type { Redis } from 'ioredis';
import {
  MemoryShopStore,
  RedisShopStore,
  type ReservationLimits,
  type ShopStore,
  seedShop,
} from '../../src/index.ts';

export const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** One connection per test file; close it in afterAll. */
export function connectRedis(): Redis {
  return createRedisConnection({ url: redisUrl });
}

/** A fixed clock: the demo's "today". */
export const TODAY = new Date('2026-11-30T10:00:00.000Z');
export const now = () => TODAY;

/** A shop store under test and how to remove what it wrote. */
export interface StoreUnderTest {
  store: ShopStore;
  cleanup: () => Promise<void>;
}

/** Deletes every key of a Redis shop prefix. */
export async function deletePrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `{${prefix}}:*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
}

/** Options both adapters take in the tests: a clock and the reservation limits. */
export type StoreOptions = { now?: () => Date; reservationLimits?: ReservationLimits };

/** Both adapters, each fresh: the in-memory one, and a Redis one under a unique prefix. */
export function storeFactories(redis: () => Redis) {
  return [
    {
      name: 'MemoryShopStore',
      create: async (options: StoreOptions = {}): Promise<StoreUnderTest> => ({
        store: new MemoryShopStore({ now, ...options }),
        cleanup: async () => {},
      }),
    },
    {
      name: 'RedisShopStore',
      create: async (options: StoreOptions = {}): Promise<StoreUnderTest> => {
        const prefix = `test:${randomUUID()}`;
        const connection = redis();
        return {
          store: new RedisShopStore({ redis: connection, prefix, now, ...options }),
          cleanup: () => deletePrefix(connection, prefix),
        };
      },
    },
  ] as const;
}

/** A memory store seeded with the bundled fixture. */
export async function seededMemoryStore(): Promise<MemoryShopStore> {
  const store = new MemoryShopStore({ now });
  await seedShop({ store });
  return store;
}

/** The data of each successful tool result of a run, by tool name, in order. */
export function toolResults(result: Pick<AgentRunResult, 'messages'>): { tool: string; data: unknown }[] {
  const names = new Map<string, string>();
  const found: { tool: string; data: unknown }[] = [];
  for (const message of result.messages) {
    if (message.role === 'assistant')
      for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
    if (message.role !== 'tool') continue;
    const envelope = parseToolResult(message.content);
    if (envelope?.ok) found.push({ tool: names.get(message.tool_call_id) ?? '?', data: envelope.data });
  }
  return found;
}

export const quiet = { logger: silentLogger() };

/** A customer of the fixture as the principal of a request, e.g. `customer('C001')` (Ada Lovelace). */
export const customer = (id: string, via: string[] = []): Principal => ({
  id,
  kind: 'user',
  roles: [],
  via,
});
/** Ada Lovelace (C001): owns orders A10086 (shipped) and A10094 (delivered). */
export const ada = customer('C001');
/** Grace Hopper (C002): owns orders A10087 and A10095 (both processing). */
export const grace = customer('C002');
/** An operator: acts on every customer's orders. */
export const operator: Principal = { id: 'op-ada', kind: 'operator', roles: [], via: [] };
/** A service acting on its own account, with no end user behind it. */
export const service: Principal = { id: 'supervisor', kind: 'service', roles: [], via: [] };
