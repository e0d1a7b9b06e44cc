import { readRedisConfig } from '@switchboard/config';
import { describe, expect, it } from 'vitest';
import {
  composeValidator,
  environmentOf,
  errorLines,
  interpolateAll,
  parseEnvFile,
} from './support/compose.ts';
import { readRepoFile } from './support/paths.ts';
import { parseYamlDocuments } from './support/yaml-files.ts';

type Services = Record<string, Record<string, unknown>>;
/** infra/.env as an operator fills it in, as far as Redis goes. */
const PASSWORD = '9e2b5f8c1d4a7e0b3f6c9d2a5e8b1f4c7d0a3e6b9f2c5d8a1e4b7f0c3d6a9e2b';
const env = { ...parseEnvFile(readRepoFile('infra/.env.example')), REDIS_PASSWORD: PASSWORD };
const [rawBase] = parseYamlDocuments(readRepoFile('infra/docker-compose.yml'), 'docker-compose.yml');
const [rawCluster] = parseYamlDocuments(
  readRepoFile('infra/docker-compose.cluster.yml'),
  'docker-compose.cluster.yml',
);
const base = interpolateAll(rawBase, env) as { services: Services } | undefined;
const cluster = interpolateAll(rawCluster, env) as { services: Services } | undefined;
/** The first line of a service's command in the override. */
const commandOf = (name: string) => String((cluster?.services[name]?.command as string[] | undefined)?.[0]);
const SWITCHBOARD = ['seed', 'supervisor', 'orders', 'inventory', 'comms'];
const NODES = [1, 2, 3, 4, 5, 6].map((n) => `redis-node-${n}`);

/** A service of `docker compose -f docker-compose.yml -f docker-compose.cluster.yml`: maps merged. */
const merged = (name: string): Record<string, unknown> => {
  const over = cluster?.services[name] ?? {};
  const under = base?.services[name] ?? {};
  return {
    ...under,
    ...over,
    environment: { ...environmentOf(under), ...environmentOf(over) },
    depends_on: { ...(under.depends_on as object), ...(over.depends_on as object) },
  };
};

describe('infra/docker-compose.cluster.yml (the Redis Cluster override)', () => {
  it('is valid against the Compose specification schema', () => {
    const validate = composeValidator();
    expect(validate(rawCluster), errorLines(validate.errors).join('\n')).toBe(true);
  });

  it('runs six cluster nodes and makes them one cluster with a replica each, once', () => {
    for (const node of NODES) {
      expect(commandOf(node)).toContain('--cluster-enabled yes');
    }
    const create = commandOf('redis-cluster-create');
    expect(create).toContain('--cluster-replicas 1');
    expect(create).toContain('for n in 1 2 3 4 5 6');
    expect(Object.keys(cluster?.services['redis-cluster-create']?.depends_on ?? {}).sort()).toEqual(NODES);
  });

  it('asks for the password of infra/.env on every node, and the cluster is made logged in with it', () => {
    for (const node of NODES) {
      expect(commandOf(node)).toContain('--requirepass "$REDIS_PASSWORD" --masterauth "$REDIS_PASSWORD"');
      expect(environmentOf(cluster?.services[node] ?? {})).toMatchObject({
        REDIS_PASSWORD: PASSWORD,
        REDISCLI_AUTH: PASSWORD,
      });
    }
    expect(environmentOf(cluster?.services['redis-cluster-create'] ?? {}).REDISCLI_AUTH).toBe(PASSWORD);
    for (const name of SWITCHBOARD) {
      const redis = readRedisConfig(environmentOf(merged(name)));
      expect(redis.ok && redis.config.password, name).toBe(PASSWORD);
    }
  });

  it.each(SWITCHBOARD)('points %s at the cluster once it is made, with no REDIS_URL left', (name) => {
    const service = merged(name);
    const env = environmentOf(service);
    expect(env.REDIS_URL).toBe('');
    const redis = readRedisConfig(env);
    expect(redis.ok && redis.config.clusterNodes).toBeTruthy();
    const nodes = String(redis.ok ? redis.config.clusterNodes : '').split(',');
    for (const node of nodes) expect(NODES).toContain(node.split(':')[0]);
    expect(service.depends_on).toMatchObject({
      'redis-cluster-create': { condition: 'service_completed_successfully' },
    });
  });
});
