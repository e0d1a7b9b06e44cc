import { describe, expect, it } from 'vitest';
import { ConfigError, createModel, readModelConfig, readRedisConfig } from '../src/index.ts';

describe('readRedisConfig', () => {
  it('reads one node by URL, or a cluster by its nodes, with the ACL user', () => {
    expect(readRedisConfig({ REDIS_URL: 'redis://10.0.0.5:6380' })).toEqual({
      ok: true,
      config: { url: 'redis://10.0.0.5:6380' },
    });
    const cluster = readRedisConfig({
      REDIS_CLUSTER_NODES: '10.0.0.1:7000,10.0.0.2:7000',
      REDIS_USERNAME: 'switchboard',
      REDIS_PASSWORD: 'not-a-real-password',
      REDIS_TLS: 'true',
    });
    expect(cluster).toMatchObject({
      ok: true,
      config: { clusterNodes: '10.0.0.1:7000,10.0.0.2:7000', username: 'switchboard', tls: true },
    });
  });

  it('names each variable that is wrong instead of falling back to a default', () => {
    const read = readRedisConfig({ REDIS_URL: 'http://x', REDIS_CLUSTER_NODES: 'a:1', REDIS_TLS: 'yes' });
    expect(read.ok).toBe(false);
    const variables = read.ok ? [] : read.problems.map((problem) => problem.variable);
    expect(variables).toEqual(expect.arrayContaining(['REDIS_URL', 'REDIS_CLUSTER_NODES', 'REDIS_TLS']));
  });
});

describe('readModelConfig and createModel', () => {
  it('run the offline planner when no model is configured', () => {
    const read = readModelConfig({}, 'orders');
    expect(read).toEqual({ config: { kind: 'offline' } });
    if ('config' in read) expect(createModel(read.config).label).toMatch(/offline/i);
  });

  it("take an agent's own setting before the global one", () => {
    const read = readModelConfig(
      { SWITCHBOARD_MODEL: 'gpt-a', ORDERS_MODEL: 'gpt-b', OPENAI_API_KEY: 'sk-live-abcdefghijklmnop' },
      'orders',
    );
    expect(read).toMatchObject({ config: { kind: 'openai', model: 'gpt-b' } });
  });

  it('refuse a model with neither key nor endpoint, saying what to set', () => {
    const read = readModelConfig({ SWITCHBOARD_MODEL: 'gpt-a' }, 'orders');
    expect('problems' in read && read.problems[0]?.message).toMatch(/OPENAI_API_KEY|OPENAI_BASE_URL|offline/);
  });
});

describe('ConfigError', () => {
  it('names the service and every variable to fix', () => {
    const error = new ConfigError('orders', [
      { variable: 'REDIS_URL', message: 'must be a redis:// or rediss:// URL' },
    ]);
    expect(error.message).toContain('REDIS_URL');
    expect(error.message).toContain('orders');
  });
});
