import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createRedisConnection,
  duplicateConnection,
  isRedisConnectionError,
  parseClusterNodes,
  type RedisConnection,
  redactUrl,
  scanKeys,
} from '../src/index.ts';

const testRedis = (): RedisConnection =>
  process.env.REDIS_CLUSTER_NODES
    ? createRedisConnection({ clusterNodes: process.env.REDIS_CLUSTER_NODES })
    : createRedisConnection({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });

/** The message of what `make` throws, after checking it is this package's INVALID_OPTIONS error. */
function refusal(make: () => unknown): string {
  try {
    make();
  } catch (error) {
    expect(isRedisConnectionError(error, 'INVALID_OPTIONS')).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('createRedisConnection', () => {
  it('refuses options that name no Redis, or two, saying what to pass', () => {
    expect(refusal(() => createRedisConnection({}))).toMatch(/Pass url .* or clusterNodes/);
    expect(refusal(() => createRedisConnection({ url: 'redis://a:1', clusterNodes: 'b:2' }))).toMatch(
      /not both/,
    );
  });

  it('refuses a URL of another scheme without printing its password', () => {
    const message = refusal(() => createRedisConnection({ url: 'http://user:s3cret@host:6379' }));
    expect(message).toMatch(/must start with redis:\/\/ or rediss:\/\//);
    expect(message).not.toContain('s3cret');
  });

  it('refuses a CA for a connection that is not TLS', () => {
    expect(refusal(() => createRedisConnection({ url: 'redis://127.0.0.1:6379', tlsCa: 'PEM' }))).toMatch(
      /tlsCa is given but the connection is not TLS/,
    );
  });
});

describe('parseClusterNodes', () => {
  it('reads host:port entries, IPv6 in brackets', () => {
    expect(parseClusterNodes(' 10.0.0.1:7000, [::1]:7001 ')).toEqual([
      { host: '10.0.0.1', port: 7000 },
      { host: '::1', port: 7001 },
    ]);
  });

  it('names the entry that is not host:port', () => {
    expect(refusal(() => parseClusterNodes('10.0.0.1:7000,redis://x:1'))).toMatch(/"redis:\/\/x:1"/);
    expect(refusal(() => parseClusterNodes(' , '))).toMatch(/empty/);
  });
});

describe('redactUrl', () => {
  it('hides the login of a URL', () => {
    expect(redactUrl('rediss://svc:p4ss@redis.internal:6380/0')).toBe('rediss://***@redis.internal:6380/0');
  });
});

describe('on a real Redis', () => {
  const redis = testRedis();
  const prefix = `{redis-test-${randomUUID()}}`;
  afterAll(async () => {
    for await (const keys of scanKeys(redis, `${prefix}:*`)) if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('scans every key of a pattern, in batches', async () => {
    const written = Array.from({ length: 25 }, (_, index) => `${prefix}:key-${index}`);
    for (const key of written) await redis.set(key, '1');
    const found: string[] = [];
    for await (const keys of scanKeys(redis, `${prefix}:*`, 10)) found.push(...keys);
    expect(found.sort()).toEqual([...written].sort());
  });

  it('duplicates a connection that reads what the first one wrote', async () => {
    await redis.set(`${prefix}:shared`, 'seen');
    const second = duplicateConnection(redis, 'redis-test-second');
    try {
      expect(await second.get(`${prefix}:shared`)).toBe('seen');
    } finally {
      await second.quit();
    }
  });
});
