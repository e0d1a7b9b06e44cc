import { randomUUID } from 'node:crypto';
import { AgentCard } from '@a2a-js/sdk';
import { BULLMQ_BINDING } from '@switchboard/a2a-bullmq';
import { MemoryLogger } from '@switchboard/agent/testing';
import { createRedisConnection, type RedisConnection, scanKeys } from '@switchboard/redis';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentRegistry, type Registration } from '../src/index.ts';

/** The tests' Redis: the cluster at REDIS_CLUSTER_NODES in the cluster stage, else REDIS_URL or local. */
const testRedis = (): RedisConnection => {
  const clusterNodes = process.env.REDIS_CLUSTER_NODES;
  return createRedisConnection(
    clusterNodes ? { clusterNodes } : { url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
  );
};

/** Every key matching `pattern` (on every master of a cluster). */
async function keysOf(redis: RedisConnection, pattern: string): Promise<string[]> {
  const found: string[] = [];
  for await (const keys of scanKeys(redis, pattern)) found.push(...keys);
  return found;
}

const redis = testRedis();
afterAll(() => redis.quit());

let namespace: string;
let registrations: Registration[];
beforeEach(() => {
  namespace = `test-registry-${randomUUID()}`;
  registrations = [];
});
afterEach(async () => {
  await Promise.all(registrations.map((registration) => registration.stop().catch(() => undefined)));
  const keys = await keysOf(redis, `${namespace}:*`);
  if (keys.length > 0) await Promise.all(keys.map((key) => redis.unlink(key)));
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function makeCard(name: string, version = '1.0.0'): AgentCard {
  return {
    ...AgentCard.fromJSON({
      name,
      description: `The ${name} agent.`,
      version,
      supportedInterfaces: [
        {
          url: `bullmq://queue/a2a.${name}?prefix=%7Bsb%3A${name}%7D`,
          protocolBinding: BULLMQ_BINDING,
          protocolVersion: '1.0',
        },
      ],
      capabilities: { streaming: true },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [{ id: 'track', name: 'Track', description: 'Tracks orders', tags: ['orders'] }],
      securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    }),
    securitySchemes: {
      bearer: {
        scheme: {
          $case: 'httpAuthSecurityScheme',
          value: { description: '', scheme: 'Bearer', bearerFormat: '' },
        },
      },
    },
  };
}

async function register(registry: AgentRegistry, options: Parameters<AgentRegistry['register']>[0]) {
  const registration = await registry.register(options);
  registrations.push(registration);
  return registration;
}

describe('AgentRegistry', () => {
  it('lists a registered agent with its card round-tripped (security schemes included) and metadata', async () => {
    const registry = new AgentRegistry({ redis, namespace });
    const card = makeCard('orders');
    const before = Date.now();
    await register(registry, { card, instanceId: 'pod-1', metadata: { region: 'eu' } });

    const entries = await registry.list();
    expect(entries.map((entry) => entry.name)).toEqual(['orders']);
    const [entry] = entries;
    expect(entry?.card).toEqual(card);
    expect(entry?.card.securitySchemes.bearer?.scheme?.$case).toBe('httpAuthSecurityScheme');
    expect(entry?.instances).toEqual([
      { instanceId: 'pod-1', lastSeen: expect.any(Date), metadata: { region: 'eu' } },
    ]);
    expect(entry?.instances[0]?.lastSeen.getTime()).toBeGreaterThanOrEqual(before);
    // Stored in the v1.0 ProtoJSON shape, readable by any A2A v1.0 client.
    const stored = JSON.parse(
      (await redis.hget(`{${namespace}:registry}:agent:orders:pod-1`, 'card')) ?? '{}',
    );
    expect(stored.securitySchemes).toEqual({ bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } });
    expect(await redis.pttl(`{${namespace}:registry}:agent:orders:pod-1`)).toBeGreaterThan(10_000);
    expect((await registry.get('orders'))?.card).toEqual(card);
    expect(await registry.get('billing')).toBeUndefined();
  });

  it('groups two instances of one agent under one entry, next to another agent', async () => {
    const registry = new AgentRegistry({ redis, namespace });
    await register(registry, { card: makeCard('orders'), instanceId: 'pod-2' });
    await register(registry, { card: makeCard('orders', '1.1.0'), instanceId: 'pod-1' });
    await register(registry, { card: makeCard('billing'), instanceId: 'pod-9' });

    const entries = await new AgentRegistry({ redis, namespace }).list();
    expect(
      entries.map((entry) => [entry.name, entry.instances.map((instance) => instance.instanceId)]),
    ).toEqual([
      ['billing', ['pod-9']],
      ['orders', ['pod-1', 'pod-2']],
    ]);
    expect(entries[1]?.card.version).toBe('1.1.0');
  });

  it('removes an instance at once on stop(), and keeps the others', async () => {
    const registry = new AgentRegistry({ redis, namespace });
    const first = await register(registry, { card: makeCard('orders'), instanceId: 'pod-1' });
    await register(registry, { card: makeCard('orders'), instanceId: 'pod-2' });
    await first.stop();
    await first.stop();
    expect((await registry.get('orders'))?.instances.map((instance) => instance.instanceId)).toEqual([
      'pod-2',
    ]);
    expect(await redis.exists(`{${namespace}:registry}:agent:orders:pod-1`)).toBe(0);
  });

  // The crash is played by disconnecting the client; a disconnected ioredis Cluster never settles a
  // MULTI (the heartbeat's and stop()'s), so on the cluster stage this one runs on a single node only.
  it.skipIf(process.env.REDIS_CLUSTER_NODES)(
    'keeps a live instance listed past its TTL, and drops one whose heartbeat stopped',
    async () => {
      const logger = new MemoryLogger();
      const registry = new AgentRegistry({ redis, namespace, ttlSeconds: 1 });
      await register(registry, { card: makeCard('orders'), instanceId: 'alive' });
      // A crashed process: its connection is gone, so its heartbeats fail and its entry expires.
      const doomed = testRedis();
      await register(new AgentRegistry({ redis: doomed, namespace, ttlSeconds: 1, logger }), {
        card: makeCard('orders'),
        instanceId: 'crashed',
      });
      expect((await registry.get('orders'))?.instances).toHaveLength(2);
      doomed.disconnect();

      await sleep(1_500);
      expect((await registry.get('orders'))?.instances.map((instance) => instance.instanceId)).toEqual([
        'alive',
      ]);
      expect(await redis.zrange(`{${namespace}:registry}:instances`, 0, '-1')).toEqual([
        JSON.stringify(['orders', 'alive']),
      ]);
      expect(logger.entries.some((entry) => entry.message === 'registry heartbeat failed')).toBe(true);
    },
  );

  it('skips and logs invalid entries without failing discovery', async () => {
    const logger = new MemoryLogger();
    const registry = new AgentRegistry({ redis, namespace, logger });
    await register(registry, { card: makeCard('orders'), instanceId: 'pod-1' });
    const index = `{${namespace}:registry}:instances`;
    const plant = async (name: string, instanceId: string, fields: Record<string, string>) => {
      await redis.hset(`{${namespace}:registry}:agent:${name}:${instanceId}`, fields);
      await redis.zadd(index, Date.now(), JSON.stringify([name, instanceId]));
    };
    await plant('broken', 'p1', { card: '{"name":', metadata: '{}', lastSeen: String(Date.now()) });
    await plant('nameless', 'p1', {
      card: JSON.stringify({ description: 'x' }),
      metadata: '{}',
      lastSeen: '1',
    });
    await plant('impostor', 'p1', {
      card: JSON.stringify(AgentCard.toJSON(makeCard('orders'))),
      metadata: '{}',
      lastSeen: '1',
    });
    await redis.set(`{${namespace}:registry}:agent:wrongtype:p1`, 'a string');
    await redis.zadd(index, Date.now(), JSON.stringify(['wrongtype', 'p1']), Date.now(), 'not json');

    const entries = await registry.list();
    expect(entries.map((entry) => entry.name)).toEqual(['orders']);
    expect(logger.entries.filter((entry) => entry.level === 'warn')).toHaveLength(5);
  });

  it('refuses a card it could not list, before writing anything', async () => {
    const registry = new AgentRegistry({ redis, namespace });
    const card = { ...makeCard('orders'), supportedInterfaces: [] };
    await expect(registry.register({ card, instanceId: 'pod-1' })).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
    });
    await expect(registry.register({ card: makeCard('orders'), instanceId: '' })).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
    });
    expect(await keysOf(redis, `${namespace}:*`)).toEqual([]);
  });
});
