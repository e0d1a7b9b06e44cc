import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateServiceKey } from '@switchboard/identity';
import { loadServiceConfig, loadSupervisorConfig } from '@switchboard/service';
import { afterAll, describe, expect, it } from 'vitest';
import {
  composeValidator,
  containerPort,
  environmentOf,
  errorLines,
  interpolateAll,
  parseEnvFile,
} from './support/compose.ts';
import { durationMs, INFRA_DIR, readRepoFile, SERVICES, WORKERS } from './support/paths.ts';
import { isRecord, parseYamlDocuments } from './support/yaml-files.ts';

const text = readRepoFile('infra/docker-compose.yml');
const [raw] = parseYamlDocuments(text, 'docker-compose.yml');
const exampleEnv = parseEnvFile(readRepoFile('infra/.env.example'));
/** The signing keys an operator makes (`switchboard keys generate --service <name>`), one per service. */
const KEYS = Object.fromEntries(SERVICES.map((name) => [name, generateServiceKey({ service: name })]));
/** Where the checks put infra/trusted-keys.json as the operator fills it: every service's public key. */
const mounts = mkdtempSync(join(tmpdir(), 'sb-compose-'));
afterAll(() => rmSync(mounts, { recursive: true, force: true }));
const trustedKeysFile = join(mounts, 'trusted-keys.json');
writeFileSync(trustedKeysFile, JSON.stringify({ keys: Object.values(KEYS).map((key) => key.publicKey) }));
/** What an operator writes in place of the example's REPLACE_ME tokens (`openssl rand -hex 32`) and keys. */
const FILLED_TOKENS = {
  ...Object.fromEntries(
    Object.entries(KEYS).map(([name, key]) => [
      `${name.toUpperCase()}_SERVICE_KEY`,
      JSON.stringify(key.privateKey),
    ]),
  ),
  SWITCHBOARD_USER_TOKENS: '9b2e7f4a1c8d3e6b0f5a2d9c4e7b1a8f3d6c0e9b2a5f8d1c4e7a0b3f6d9c2e5a=alice',
  SWITCHBOARD_OPERATOR_TOKENS: 'c7e0a3f6d9b2c5e8a1f4d7b0e3c6a9f2d5b8e1c4a7f0d3b6e9c2a5f8d1b4e7c0=olivia',
  REDIS_PASSWORD: '4f1c9e7a2b8d5f0c3e6a9b2d7f4c1e8a5b0d3f6c9e2a7b4d1f8c5e0a3b6d9f2c',
};
/** The file as `docker compose` sees it with infra/.env copied from the example and filled in. */
const compose = interpolateAll(raw, { ...exampleEnv, ...FILLED_TOKENS }) as {
  services: Record<string, Record<string, unknown>>;
};
const service = (name: string) => {
  const found = compose.services[name];
  if (!found) throw new Error(`docker-compose.yml has no service "${name}"`);
  return found;
};
const validate = composeValidator();

/**
 * A service's environment as its container sees it: the trusted keys file it is given is the one
 * Compose mounts from infra/trusted-keys.json (checked), here the operator's copy.
 */
const containerEnvOf = (name: string): Record<string, string> => {
  const env = environmentOf(service(name));
  const path = (env.SWITCHBOARD_TRUSTED_KEYS ?? '').replace(/^file:/, '');
  const mount = (service(name).volumes as Record<string, unknown>[] | undefined)?.find(
    (volume) => volume.target === path,
  );
  expect(mount, `${name} mounts the trusted keys at ${path}`).toMatchObject({
    type: 'bind',
    source: './trusted-keys.json',
    read_only: true,
  });
  return { ...env, SWITCHBOARD_TRUSTED_KEYS: `file:${trustedKeysFile}` };
};

describe('infra/docker-compose.yml', () => {
  it('is valid against the Compose specification schema', () => {
    const valid = validate(raw);
    expect(errorLines(validate.errors)).toEqual([]);
    expect(valid).toBe(true);
  });

  it('has a schema check that refuses a broken copy, naming the paths', () => {
    const broken = structuredClone(raw) as typeof compose;
    const orders = broken.services.orders as Record<string, unknown>;
    orders.deploy = { replicas: 'two' };
    orders.stop_grace_period = 'a while';
    orders.restart_policy = 'always';
    expect(validate(broken)).toBe(false);
    expect(errorLines(validate.errors)).toEqual(
      expect.arrayContaining([
        '/services/orders must NOT have additional properties',
        '/services/orders/deploy/replicas must be integer',
        '/services/orders/stop_grace_period must match format "duration"',
      ]),
    );
  });

  it('runs the four services from the one image built from infra/Dockerfile', () => {
    for (const name of SERVICES) {
      const built = service(name);
      expect(built.build).toEqual({ context: '..', dockerfile: 'infra/Dockerfile' });
      expect(environmentOf(built).SWITCHBOARD_SERVICE).toBe(name);
    }
    const context = resolve(INFRA_DIR, '..');
    expect(existsSync(join(context, 'infra/Dockerfile'))).toBe(true);
  });

  it('points every service at Redis and at Jaeger over OTLP', () => {
    for (const name of SERVICES) {
      const env = environmentOf(service(name));
      expect(env.REDIS_URL, name).toBe('redis://redis:6379');
      expect(env.OTEL_EXPORTER_OTLP_ENDPOINT, name).toBe('http://jaeger:4318');
    }
    expect(environmentOf(service('seed')).REDIS_URL).toBe('redis://redis:6379');
  });

  it('gives every service a configuration its own loader accepts', () => {
    for (const name of WORKERS) {
      const config = loadServiceConfig({
        env: containerEnvOf(name),
        service: name,
        defaultPort: 4101,
      });
      expect(config.otlpEndpoint).toBe('http://jaeger:4318');
      expect(config.host).toBe('0.0.0.0');
      expect(config.serviceKey.kid, `${name} signs with its own key`).toBe(KEYS[name]?.privateKey.kid);
    }
    const supervisor = loadSupervisorConfig(containerEnvOf('supervisor'));
    expect(supervisor.publicUrl).toBe('http://localhost:4100');
    expect(supervisor.workers).toEqual([...WORKERS]);
  });

  it('gives the user and operator tokens to the supervisor only', () => {
    for (const name of WORKERS) {
      const env = environmentOf(service(name));
      expect(env.SWITCHBOARD_USER_TOKENS).toBeUndefined();
      expect(env.SWITCHBOARD_OPERATOR_TOKENS).toBeUndefined();
    }
  });

  it('starts no service with the example’s placeholders left in place, naming each variable', () => {
    const copied = interpolateAll(raw, exampleEnv) as typeof compose;
    const supervisor = environmentOf(copied.services.supervisor ?? {});
    expect(() => loadSupervisorConfig(supervisor)).toThrow(
      /SWITCHBOARD_SERVICE_KEY: is not JSON: give the private JWK that "switchboard keys generate" printed/,
    );
    expect(() => loadSupervisorConfig(supervisor)).toThrow(
      /SWITCHBOARD_USER_TOKENS: the token for "alice" is a placeholder/,
    );
    expect(() => loadSupervisorConfig(supervisor)).toThrow(
      /SWITCHBOARD_OPERATOR_TOKENS: the token for "olivia" is a placeholder/,
    );
  });

  it('commits no secret: every token comes from infra/.env and stops Compose when missing', () => {
    for (const variable of [
      ...SERVICES.map((name) => `${name.toUpperCase()}_SERVICE_KEY`),
      'SWITCHBOARD_USER_TOKENS',
      'SWITCHBOARD_OPERATOR_TOKENS',
      'REDIS_PASSWORD',
    ]) {
      expect(text).toMatch(new RegExp(`\\$\\{${variable}:\\?[^}]*infra/\\.env[^}]*\\}`));
      expect(exampleEnv[variable], `.env.example names ${variable}`).toMatch(/REPLACE_ME/);
      const { [variable]: _missing, ...withoutIt } = exampleEnv;
      expect(() => interpolateAll(raw, withoutIt)).toThrow(
        new RegExp(`${variable}: set ${variable} in infra/\\.env`),
      );
    }
  });

  it('runs two replicas of each worker and publishes the supervisor on 4100', () => {
    for (const name of WORKERS) {
      expect(
        Number((service(name).deploy as { replicas?: number } | undefined)?.replicas),
      ).toBeGreaterThanOrEqual(2);
      expect(service(name).ports, `${name} publishes no host port, so it can have replicas`).toBeUndefined();
    }
    const supervisor = service('supervisor');
    const ports = (supervisor.ports as string[]).map(String);
    expect(ports.some((port) => /(^|:)4100:/.test(port))).toBe(true);
    expect(ports.map(containerPort)).toContain(Number(environmentOf(supervisor).PORT));
  });

  it('gives Redis a password from infra/.env, and every service and the seed log in with it', () => {
    const redis = service('redis');
    const command = (redis.command as string[]).join(' ');
    expect(command).toMatch(/--requirepass "\$\$?REDIS_PASSWORD"/);
    expect(environmentOf(redis).REDIS_PASSWORD).toBe(FILLED_TOKENS.REDIS_PASSWORD);
    // The health check's redis-cli logs in too (REDISCLI_AUTH), or it would never see Redis healthy.
    expect(environmentOf(redis).REDISCLI_AUTH).toBe(FILLED_TOKENS.REDIS_PASSWORD);
    expect(JSON.stringify(redis.healthcheck)).not.toContain(FILLED_TOKENS.REDIS_PASSWORD);
    for (const name of [...SERVICES, 'seed']) {
      expect(environmentOf(service(name)).REDIS_PASSWORD, name).toBe(FILLED_TOKENS.REDIS_PASSWORD);
    }
    for (const name of WORKERS) {
      const config = loadServiceConfig({ env: containerEnvOf(name), service: name, defaultPort: 4101 });
      expect(config.redis).toMatchObject({
        url: 'redis://redis:6379',
        password: FILLED_TOKENS.REDIS_PASSWORD,
      });
    }
    // Left as the example has it, the services refuse to start, naming the variable.
    const copied = interpolateAll(raw, exampleEnv) as typeof compose;
    expect(() =>
      loadServiceConfig({
        env: environmentOf(copied.services.orders ?? {}),
        service: 'orders',
        defaultPort: 4101,
      }),
    ).toThrow(/REDIS_PASSWORD: is a placeholder/);
  });

  it('keeps Redis durable and refusing to evict, with a volume and a health check', () => {
    const redis = service('redis');
    expect(String(redis.image)).toMatch(/^redis:7(\.|$)/);
    const command = (redis.command as string[]).join(' ');
    expect(command).toContain('--appendonly yes');
    expect(command).toContain('--maxmemory-policy noeviction');
    expect((redis.volumes as string[]).some((volume) => volume.endsWith(':/data'))).toBe(true);
    expect(JSON.stringify(redis.healthcheck)).toContain('redis-cli');
  });

  it('runs a pinned Jaeger v2 with its UI and both OTLP ports', () => {
    const jaeger = service('jaeger');
    expect(String(jaeger.image)).toMatch(/^jaegertracing\/jaeger:2\.\d+\.\d+$/);
    expect((jaeger.ports as string[]).map(containerPort).sort((a, b) => a - b)).toEqual([4317, 4318, 16686]);
    expect(jaeger.healthcheck).toBeDefined();
  });

  it('starts each service after what it needs is healthy', () => {
    for (const name of SERVICES) {
      const needs = service(name).depends_on as Record<string, { condition: string }>;
      expect(needs.redis?.condition, name).toBe('service_healthy');
      expect(needs.jaeger?.condition, name).toBe('service_healthy');
    }
    const supervisorNeeds = service('supervisor').depends_on as Record<string, { condition: string }>;
    for (const name of WORKERS) expect(supervisorNeeds[name]?.condition).toBe('service_healthy');
    expect(supervisorNeeds.seed?.condition).toBe('service_completed_successfully');
  });

  it('gives a stopping service longer than its drain, and restarts what stops', () => {
    for (const name of SERVICES) {
      const built = service(name);
      const env = environmentOf(built);
      const drain = Number(env.SWITCHBOARD_DRAIN_MS);
      expect(drain, `${name}: the drain outlasts the longest delegation`).toBeGreaterThan(
        Number(env.SWITCHBOARD_HOP_TIMEOUT_MS),
      );
      // The drain, then the HTTP close (5 s), then flushing spans.
      expect(durationMs(String(built.stop_grace_period)), name).toBeGreaterThan(drain + 5_000);
      expect(built.restart, name).toMatch(/^(always|unless-stopped|on-failure)/);
    }
    for (const name of ['redis', 'jaeger']) expect(service(name).restart).toBe('unless-stopped');
    expect(service('seed').restart).toBe('no');
  });

  it('writes nowhere but /tmp', () => {
    for (const name of SERVICES) {
      expect(service(name).read_only, name).toBe(true);
      expect(service(name).tmpfs, name).toContain('/tmp');
    }
  });

  it('declares the volumes it mounts', () => {
    const volumes = (compose as { volumes?: unknown }).volumes;
    expect(isRecord(volumes) ? Object.keys(volumes) : []).toContain('redis-data');
  });
});
