import { describe, expect, it } from 'vitest';
import { ConfigError, loadServiceConfig } from '../src/index.ts';

const base = { SWITCHBOARD_SERVICE_TOKEN: 'svc-0123456789abcdef' };

function problemsOf(env: NodeJS.ProcessEnv, isPublic = false) {
  try {
    loadServiceConfig({ env, service: 'orders', defaultPort: 4101, public: isPublic });
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadServiceConfig', () => {
  it('fills defaults: local Redis, the default port, the offline model, spans to a file', () => {
    const config = loadServiceConfig({ env: base, service: 'orders', defaultPort: 4101 });
    expect(config).toMatchObject({
      redisUrl: 'redis://127.0.0.1:6379',
      namespace: 'switchboard',
      port: 4101,
      publicUrl: 'http://127.0.0.1:4101',
      model: { kind: 'offline' },
      otlpEndpoint: undefined,
      spanFile: '.switchboard/spans.jsonl',
      hopTimeoutMs: 60_000,
    });
  });

  it('names every wrong or missing variable in one error, and how to fix it', () => {
    const error = problemsOf({
      PORT: 'eighty',
      REDIS_URL: 'localhost:6379',
      SWITCHBOARD_HOP_TIMEOUT_MS: '-5',
    });
    expect(error.problems.map((problem) => problem.variable).sort()).toEqual([
      'PORT',
      'REDIS_URL',
      'SWITCHBOARD_HOP_TIMEOUT_MS',
      'SWITCHBOARD_SERVICE_TOKEN',
    ]);
    expect(error.message).toContain('The orders service cannot start');
    expect(error.message).toContain('REDIS_URL: must be a redis:// or rediss:// URL');
  });

  it('waits 30 s for a worker with no live replica, never longer than the hop timeout', () => {
    const read = (env: NodeJS.ProcessEnv) =>
      loadServiceConfig({ env: { ...base, ...env }, service: 'supervisor', defaultPort: 4100 }).workerWaitMs;
    expect(read({})).toBe(30_000);
    expect(read({ SWITCHBOARD_HOP_TIMEOUT_MS: '3000' })).toBe(3_000);
    expect(read({ SWITCHBOARD_WORKER_WAIT_MS: '5000' })).toBe(5_000);
    expect(problemsOf({ ...base, SWITCHBOARD_WORKER_WAIT_MS: 'soon' }).problems).toEqual([
      { variable: 'SWITCHBOARD_WORKER_WAIT_MS', message: 'must be a number of milliseconds' },
    ]);
    expect(
      problemsOf({ ...base, SWITCHBOARD_WORKER_WAIT_MS: '90000', SWITCHBOARD_HOP_TIMEOUT_MS: '60000' })
        .message,
    ).toContain(
      'SWITCHBOARD_WORKER_WAIT_MS: must not be longer than SWITCHBOARD_HOP_TIMEOUT_MS (60000 ms), which ends every delegation; lower it, or raise the hop timeout',
    );
  });

  it('a public service needs API and operator tokens, written as token=name pairs', () => {
    const missing = problemsOf(base, true);
    expect(missing.problems.map((problem) => problem.variable)).toEqual([
      'SWITCHBOARD_CUSTOMER_TOKENS',
      'SWITCHBOARD_OPERATOR_TOKENS',
    ]);
    const malformed = problemsOf(
      { ...base, SWITCHBOARD_CUSTOMER_TOKENS: 'short=alice', SWITCHBOARD_OPERATOR_TOKENS: 'nopair' },
      true,
    );
    expect(malformed.message).toContain(
      'SWITCHBOARD_CUSTOMER_TOKENS: the token for "alice" must be at least 16 characters',
    );
    expect(malformed.message).toContain('SWITCHBOARD_OPERATOR_TOKENS: "nopair…" is not token=name');
    const config = loadServiceConfig({
      env: {
        ...base,
        SWITCHBOARD_CUSTOMER_TOKENS: 'tok-0123456789abcdef=alice',
        SWITCHBOARD_OPERATOR_TOKENS: 'ops-0123456789abcdef=ada',
      },
      service: 'supervisor',
      defaultPort: 4100,
      public: true,
    });
    expect(config.customerTokens).toEqual({ 'tok-0123456789abcdef': 'alice' });
    expect(config.operatorTokens).toEqual({ 'ops-0123456789abcdef': 'ada' });
  });

  describe('an identity provider (SWITCHBOARD_OIDC_*)', () => {
    const idp = {
      SWITCHBOARD_OIDC_ISSUER: 'https://login.example.com/realms/shop',
      SWITCHBOARD_OIDC_AUDIENCE: 'switchboard',
      SWITCHBOARD_OIDC_JWKS_URL: 'https://login.example.com/realms/shop/protocol/openid-connect/certs',
    };
    const load = (env: NodeJS.ProcessEnv) =>
      loadServiceConfig({ env: { ...base, ...env }, service: 'supervisor', defaultPort: 4100, public: true });

    it('is off without its variables, and stands in for the tokens of a public service', () => {
      expect(
        loadServiceConfig({ env: base, service: 'orders', defaultPort: 1 }).identityProvider,
      ).toBeUndefined();
      const config = load({
        ...idp,
        SWITCHBOARD_OIDC_ROLES_CLAIM: 'realm_access.roles',
        SWITCHBOARD_OIDC_OPERATOR_ROLE: 'support-lead',
        SWITCHBOARD_OIDC_CLOCK_SKEW_S: '10',
      });
      expect(config.identityProvider).toMatchObject({
        issuer: idp.SWITCHBOARD_OIDC_ISSUER,
        audience: 'switchboard',
        jwksUrl: idp.SWITCHBOARD_OIDC_JWKS_URL,
        customerClaim: 'sub',
        rolesClaim: 'realm_access.roles',
        operatorRole: 'support-lead',
        clockToleranceSec: 10,
      });
      expect(config.customerTokens).toEqual({});
      expect(config.operatorTokens).toEqual({});
      expect(
        load({ ...idp, SWITCHBOARD_OIDC_AUDIENCE: 'switchboard, orders-api' }).identityProvider?.audience,
      ).toEqual(['switchboard', 'orders-api']);
    });

    it('needs its issuer, audience and JWKS URL together, and says which is missing', () => {
      const error = problemsOf({ ...base, SWITCHBOARD_OIDC_ISSUER: idp.SWITCHBOARD_OIDC_ISSUER }, true);
      expect(error.problems.map((problem) => problem.variable)).toEqual([
        'SWITCHBOARD_OIDC_AUDIENCE',
        'SWITCHBOARD_OIDC_JWKS_URL',
        'SWITCHBOARD_CUSTOMER_TOKENS',
        'SWITCHBOARD_OPERATOR_TOKENS',
      ]);
      expect(error.message).toContain(
        'SWITCHBOARD_OIDC_AUDIENCE: is required with SWITCHBOARD_OIDC_ISSUER: an identity provider needs SWITCHBOARD_OIDC_ISSUER, SWITCHBOARD_OIDC_AUDIENCE, SWITCHBOARD_OIDC_JWKS_URL together (or unset them all)',
      );
      expect(error.message).toContain(
        'SWITCHBOARD_CUSTOMER_TOKENS: is required for a public service without an identity provider (SWITCHBOARD_OIDC_*)',
      );
    });

    it('names each bad value: a plain-http JWKS off this machine, a clock skew that is not seconds', () => {
      const error = problemsOf({
        ...base,
        ...idp,
        SWITCHBOARD_OIDC_JWKS_URL: 'http://login.example.com/certs',
        SWITCHBOARD_OIDC_CLOCK_SKEW_S: '30s',
      });
      expect(error.problems).toEqual([
        {
          variable: 'SWITCHBOARD_OIDC_JWKS_URL',
          message: expect.stringContaining('must be an https:// URL (http:// only for a loopback host'),
        },
        { variable: 'SWITCHBOARD_OIDC_CLOCK_SKEW_S', message: 'must be a number of seconds' },
      ]);
      expect(
        load({ ...idp, SWITCHBOARD_OIDC_JWKS_URL: 'http://127.0.0.1:8080/realms/shop/certs' })
          .identityProvider?.jwksUrl,
      ).toBe('http://127.0.0.1:8080/realms/shop/certs');
    });
  });

  it('switches to an OpenAI-compatible model by key, globally or per agent', () => {
    const global = loadServiceConfig({
      env: { ...base, OPENAI_API_KEY: 'sk-test' },
      service: 'orders',
      defaultPort: 1,
    });
    expect(global.model).toEqual({
      kind: 'openai',
      model: 'gpt-4.1-mini',
      apiKey: 'sk-test',
      baseURL: undefined,
    });
    const scoped = loadServiceConfig({
      env: {
        ...base,
        OPENAI_API_KEY: 'sk-test',
        SWITCHBOARD_MODEL: 'gpt-4.1',
        ORDERS_MODEL: 'qwen-plus',
        ORDERS_OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      },
      service: 'orders',
      defaultPort: 1,
    });
    expect(scoped.model).toEqual({
      kind: 'openai',
      model: 'qwen-plus',
      apiKey: 'sk-test',
      baseURL: 'http://127.0.0.1:9/v1',
    });
    const offline = loadServiceConfig({
      env: { ...base, OPENAI_API_KEY: 'sk-test', ORDERS_MODEL: 'offline' },
      service: 'orders',
      defaultPort: 1,
    });
    expect(offline.model).toEqual({ kind: 'offline' });
  });

  it('refuses a named model without a key or an endpoint, and says the three ways out', () => {
    const error = problemsOf({ ...base, SWITCHBOARD_MODEL: 'gpt-4.1' });
    expect(error.problems).toEqual([
      {
        variable: 'OPENAI_API_KEY',
        message: expect.stringContaining(
          'set OPENAI_BASE_URL to a local server that needs no key, or set SWITCHBOARD_MODEL=offline',
        ),
      },
    ]);
  });
});
