import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateServiceKey } from '@switchboard/identity';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadServiceConfig } from '../src/index.ts';
import { serviceKeyEnv } from './support/service-keys.ts';

/** The keys of the orders service (`problemsOf` reads the orders service), and the supervisor's. */
const base = serviceKeyEnv('orders');
const supervisorBase = serviceKeyEnv('supervisor');

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
      spanAttributeMaxLength: 1024,
      idLimits: { maxIdBytes: 128 },
      hopTimeoutMs: 60_000,
      card: { unversioned: 'hybrid', sign: true },
    });
  });

  it('reads the id and span attribute bounds, refusing ones that cannot work', () => {
    const config = loadServiceConfig({
      env: { ...base, SWITCHBOARD_MAX_ID_BYTES: '64', SWITCHBOARD_SPAN_ATTRIBUTE_MAX_LENGTH: '2048' },
      service: 'orders',
      defaultPort: 4101,
    });
    expect(config).toMatchObject({ idLimits: { maxIdBytes: 64 }, spanAttributeMaxLength: 2048 });
    const error = problemsOf({
      ...base,
      SWITCHBOARD_MAX_ID_BYTES: '16',
      SWITCHBOARD_SPAN_ATTRIBUTE_MAX_LENGTH: 'long',
    });
    expect(error.problems).toEqual([
      { variable: 'SWITCHBOARD_MAX_ID_BYTES', message: 'must be at least 36' },
      { variable: 'SWITCHBOARD_SPAN_ATTRIBUTE_MAX_LENGTH', message: 'must be a whole number' },
    ]);
  });

  it('reads how the card is published: the header-less shape and whether it is signed', () => {
    const config = (extra: NodeJS.ProcessEnv) =>
      loadServiceConfig({ env: { ...base, ...extra }, service: 'orders', defaultPort: 4101 }).card;
    expect(config({ SWITCHBOARD_CARD_UNVERSIONED: '1.0', SWITCHBOARD_SIGN_CARD: 'false' })).toEqual({
      unversioned: '1.0',
      sign: false,
    });
    expect(config({ SWITCHBOARD_CARD_UNVERSIONED: ' 0.3 ', SWITCHBOARD_SIGN_CARD: 'TRUE' })).toEqual({
      unversioned: '0.3',
      sign: true,
    });
    const error = problemsOf({ ...base, SWITCHBOARD_CARD_UNVERSIONED: 'v1', SWITCHBOARD_SIGN_CARD: 'yes' });
    expect(error.problems).toEqual([
      {
        variable: 'SWITCHBOARD_CARD_UNVERSIONED',
        message: expect.stringMatching(/^must be hybrid .*, 1\.0 .* or 0\.3, not "v1"$/),
      },
      {
        variable: 'SWITCHBOARD_SIGN_CARD',
        message: expect.stringMatching(/^must be true .* or false, not "yes"$/),
      },
    ]);
  });

  it('repeats a completed task’s answer in its final status only when told to', () => {
    const answerInStatus = (extra: NodeJS.ProcessEnv) =>
      loadServiceConfig({ env: { ...base, ...extra }, service: 'orders', defaultPort: 4101 }).answerInStatus;
    expect(answerInStatus({})).toBe(false);
    expect(answerInStatus({ SWITCHBOARD_ANSWER_IN_STATUS: ' TRUE ' })).toBe(true);
    expect(problemsOf({ ...base, SWITCHBOARD_ANSWER_IN_STATUS: 'yes' }).problems).toEqual([
      { variable: 'SWITCHBOARD_ANSWER_IN_STATUS', message: 'must be true or false, not "yes"' },
    ]);
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
      'SWITCHBOARD_SERVICE_KEY',
      'SWITCHBOARD_TRUSTED_KEYS',
    ]);
    expect(error.message).toContain('The orders service cannot start');
    expect(error.message).toContain('REDIS_URL: must be a redis:// or rediss:// URL');
  });

  it('reads a Redis Cluster with its ACL user, password and TLS instead of one node', () => {
    const config = loadServiceConfig({
      env: {
        ...base,
        REDIS_CLUSTER_NODES: ' redis-0.redis:6379, 10.0.0.2:6380,[::1]:7000 ',
        REDIS_USERNAME: 'switchboard',
        REDIS_PASSWORD: 's3cret',
        REDIS_TLS: 'true',
      },
      service: 'orders',
      defaultPort: 4101,
    });
    expect(config.redis).toEqual({
      clusterNodes: 'redis-0.redis:6379, 10.0.0.2:6380,[::1]:7000',
      username: 'switchboard',
      password: 's3cret',
      tls: true,
    });
    expect(config.redisUrl).toBeUndefined();
  });

  it('stops on a malformed cluster node list, naming the entry and how to write it', () => {
    const error = problemsOf({
      ...base,
      REDIS_CLUSTER_NODES: '10.0.0.1:6379,redis://10.0.0.2:6379',
      REDIS_TLS: 'yes',
    });
    expect(error.problems).toEqual([
      { variable: 'REDIS_TLS', message: 'must be true (connect to Redis with TLS) or false, not "yes"' },
      {
        variable: 'REDIS_CLUSTER_NODES',
        message: expect.stringContaining('Cluster node "redis://10.0.0.2:6379" is not host:port'),
      },
    ]);
    expect(error.message).toContain('REDIS_CLUSTER_NODES');
    expect(problemsOf({ ...base, REDIS_CLUSTER_NODES: '10.0.0.1:99999' }).problems[0]?.message).toContain(
      'a port from 1 to 65535',
    );
  });

  it('reads the CA file a private Redis certificate chains to, and names a missing or wrong one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-redis-ca-'));
    try {
      const ca = join(dir, 'ca.crt');
      writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
      const config = loadServiceConfig({
        env: { ...base, REDIS_URL: 'rediss://redis:6380', REDIS_TLS_CA_FILE: ca },
        service: 'orders',
        defaultPort: 4101,
      });
      expect(config.redis).toEqual({ url: 'rediss://redis:6380', tlsCa: readFileSync(ca, 'utf8') });

      expect(
        problemsOf({ ...base, REDIS_TLS: 'true', REDIS_TLS_CA_FILE: join(dir, 'none.crt') }).problems,
      ).toEqual([
        {
          variable: 'REDIS_TLS_CA_FILE',
          message: `cannot read ${join(dir, 'none.crt')} (ENOENT); give the path of a PEM file of CA certificates`,
        },
      ]);
      const notPem = join(dir, 'key.txt');
      writeFileSync(notPem, 'not a certificate');
      expect(problemsOf({ ...base, REDIS_TLS: 'true', REDIS_TLS_CA_FILE: notPem }).problems[0]?.message).toBe(
        `${notPem} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`,
      );
      // A CA for a connection that is not TLS would be ignored: refused instead.
      expect(
        problemsOf({ ...base, REDIS_URL: 'redis://redis:6379', REDIS_TLS_CA_FILE: ca }).problems,
      ).toEqual([
        {
          variable: 'REDIS_TLS_CA_FILE',
          message:
            'is set but the connection is not TLS; set REDIS_TLS=true (or a rediss:// REDIS_URL), or unset REDIS_TLS_CA_FILE',
        },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads where the console finds eval reports, and names a directory or a baseline that is not there', () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-eval-reports-'));
    try {
      const baseline = join(dir, 'baseline.json');
      writeFileSync(baseline, '{}');
      expect(loadServiceConfig({ env: base, service: 'orders', defaultPort: 4101 }).evalReports).toEqual({
        reports: undefined,
        baseline: undefined,
      });
      const config = loadServiceConfig({
        env: { ...base, SWITCHBOARD_EVAL_REPORTS: dir, SWITCHBOARD_EVAL_BASELINE: baseline },
        service: 'orders',
        defaultPort: 4101,
      });
      expect(config.evalReports).toEqual({ reports: dir, baseline });
      const error = problemsOf({
        ...base,
        SWITCHBOARD_EVAL_REPORTS: baseline,
        SWITCHBOARD_EVAL_BASELINE: join(dir, 'none.json'),
      });
      expect(error.problems).toEqual([
        {
          variable: 'SWITCHBOARD_EVAL_REPORTS',
          message: `must be a directory of eval reports (switchboard eval --out <dir>/<run>.json); there is none there (${baseline})`,
        },
        {
          variable: 'SWITCHBOARD_EVAL_BASELINE',
          message: `must be an eval report file (switchboard eval --out evals/baseline.json); there is none there (${join(dir, 'none.json')})`,
        },
      ]);
      expect(error.message).toContain('SWITCHBOARD_EVAL_REPORTS: must be a directory of eval reports');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses REDIS_URL and REDIS_CLUSTER_NODES together rather than pick one', () => {
    const error = problemsOf({
      ...base,
      REDIS_URL: 'redis://10.0.0.1:6379',
      REDIS_CLUSTER_NODES: '10.0.0.1:7000',
    });
    expect(error.problems).toEqual([
      {
        variable: 'REDIS_CLUSTER_NODES',
        message: expect.stringContaining('not both'),
      },
    ]);
  });

  it('waits 30 s for a worker with no live replica, never longer than the hop timeout', () => {
    const read = (env: NodeJS.ProcessEnv) =>
      loadServiceConfig({ env: { ...supervisorBase, ...env }, service: 'supervisor', defaultPort: 4100 })
        .workerWaitMs;
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
      'SWITCHBOARD_USER_TOKENS',
      'SWITCHBOARD_OPERATOR_TOKENS',
    ]);
    const malformed = problemsOf(
      { ...base, SWITCHBOARD_USER_TOKENS: 'short=alice', SWITCHBOARD_OPERATOR_TOKENS: 'nopair' },
      true,
    );
    expect(malformed.message).toContain(
      'SWITCHBOARD_USER_TOKENS: the token for "alice" must be at least 16 characters',
    );
    expect(malformed.message).toContain('SWITCHBOARD_OPERATOR_TOKENS: "nopair…" is not token=name');
    const config = loadServiceConfig({
      env: {
        ...supervisorBase,
        SWITCHBOARD_USER_TOKENS: 'tok-Vn5Hc1Jp7Qy3Ws9d=alice',
        SWITCHBOARD_OPERATOR_TOKENS: 'ops-Gf2Mk8Rt4Lx6Zb1n=ada',
      },
      service: 'supervisor',
      defaultPort: 4100,
      public: true,
    });
    expect(config.userTokens).toEqual({ 'tok-Vn5Hc1Jp7Qy3Ws9d': 'alice' });
    expect(config.operatorTokens).toEqual({ 'ops-Gf2Mk8Rt4Lx6Zb1n': 'ada' });
  });

  it('still reads the 0.2 user tokens variable, with a note to rename it; both set differently is an error', () => {
    const read = (env: NodeJS.ProcessEnv) =>
      loadServiceConfig({
        env: { ...supervisorBase, ...env },
        service: 'supervisor',
        defaultPort: 4100,
        public: true,
      });
    const operators = { SWITCHBOARD_OPERATOR_TOKENS: 'ops-Gf2Mk8Rt4Lx6Zb1n=ada' };
    const old = read({ ...operators, SWITCHBOARD_CUSTOMER_TOKENS: 'tok-Vn5Hc1Jp7Qy3Ws9d=alice' });
    expect(old.userTokens).toEqual({ 'tok-Vn5Hc1Jp7Qy3Ws9d': 'alice' });
    expect(old.deprecations).toEqual([
      'SWITCHBOARD_CUSTOMER_TOKENS is deprecated and read for one more release: rename it SWITCHBOARD_USER_TOKENS',
    ]);
    const both = {
      SWITCHBOARD_CUSTOMER_TOKENS: 'tok-Vn5Hc1Jp7Qy3Ws9d=alice',
      SWITCHBOARD_USER_TOKENS: 'tok-Vn5Hc1Jp7Qy3Ws9d=alice',
    };
    expect(read({ ...operators, ...both }).userTokens).toEqual({ 'tok-Vn5Hc1Jp7Qy3Ws9d': 'alice' });
    expect(
      read({ ...operators, SWITCHBOARD_USER_TOKENS: 'tok-Vn5Hc1Jp7Qy3Ws9d=alice' }).deprecations,
    ).toEqual([]);
    const differ = problemsOf(
      { ...base, ...operators, ...both, SWITCHBOARD_USER_TOKENS: 'tok-Pq8Wd3Zn6Xr1Kb4m=bob' },
      true,
    );
    expect(differ.problems).toEqual([
      {
        variable: 'SWITCHBOARD_CUSTOMER_TOKENS',
        message:
          'is the deprecated name of SWITCHBOARD_USER_TOKENS and both are set, with different tokens; keep only SWITCHBOARD_USER_TOKENS',
      },
    ]);
  });

  it('refuses placeholder and guessable tokens, naming the variable, why, and how to make one', () => {
    const error = problemsOf(
      {
        ...base,
        SWITCHBOARD_USER_TOKENS: 'aaaaaaaaaaaaaaaaaaaa=alice,tok-0123456789abcdef=bob',
        SWITCHBOARD_OPERATOR_TOKENS: 'your-operator-token-here=ada',
      },
      true,
    );
    expect(error.problems).toEqual([
      {
        variable: 'SWITCHBOARD_USER_TOKENS',
        message:
          'the token for "alice" repeats one character 8 times or more; make one with `openssl rand -hex 32`',
      },
      {
        variable: 'SWITCHBOARD_OPERATOR_TOKENS',
        message:
          'the token for "ada" is a placeholder (it contains "token"); make one with `openssl rand -hex 32`',
      },
    ]);
    const weak = (token: string) =>
      problemsOf({ ...base, SWITCHBOARD_USER_TOKENS: `${token}=alice` }).problems.map((problem) =>
        problem.message.replace('the token for "alice" ', ''),
      );
    expect(weak('svc-0123456789abcdef')).toEqual([
      'has a run of 8 or more consecutive characters (such as 01234567 or abcdefgh); make one with `openssl rand -hex 32`',
    ]);
    expect(weak('abababababababababab')).toEqual([
      'is too easy to guess (about 20 bits of entropy, at least 64 needed); make one with `openssl rand -hex 32`',
    ]);
    expect(weak('changeme-please-now')[0]).toMatch(/^is a placeholder \(it contains "changeme"\)/);
    expect(weak('XXXXXXXXXXXXXXXXXXXX')[0]).toMatch(/^is a placeholder \(it contains "xxxx"\)/);
    // What the message says to run makes a token that passes.
    const made = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
    expect(
      loadServiceConfig({
        env: { ...base, SWITCHBOARD_USER_TOKENS: `${made}=alice` },
        service: 'orders',
        defaultPort: 1,
      }).userTokens,
    ).toEqual({ [made]: 'alice' });
    expect(problemsOf({ ...base, OPENAI_API_KEY: 'REPLACE_ME' }).problems).toEqual([
      {
        variable: 'OPENAI_API_KEY',
        message:
          'is a placeholder (it contains "replaceme"); set the key your provider gave you, or unset it',
      },
    ]);
  });

  it('reads the limits and retention, 0 turning a per-user limit off', () => {
    const read = (env: NodeJS.ProcessEnv) =>
      loadServiceConfig({ env: { ...base, ...env }, service: 'orders', defaultPort: 1 });
    expect(read({})).toMatchObject({
      userLimits: {
        requestsPerMinute: 60,
        maxTasksInFlight: 5,
        maxMessageBytes: 16_384,
        maxOpenStreams: 10,
      },
      streamIdleMs: 300_000,
      historyTurns: 50,
      retentionDays: 7,
    });
    expect(
      read({
        SWITCHBOARD_RATE_LIMIT_PER_MIN: '0',
        SWITCHBOARD_MAX_TASKS_IN_FLIGHT: '2',
        SWITCHBOARD_MAX_MESSAGE_BYTES: '4096',
        SWITCHBOARD_MAX_OPEN_STREAMS: '0',
        SWITCHBOARD_STREAM_IDLE_MS: '60000',
        SWITCHBOARD_HISTORY_TURNS: '10',
        SWITCHBOARD_RETENTION_DAYS: '30',
      }),
    ).toMatchObject({
      userLimits: {
        requestsPerMinute: Number.POSITIVE_INFINITY,
        maxTasksInFlight: 2,
        maxMessageBytes: 4096,
        maxOpenStreams: Number.POSITIVE_INFINITY,
      },
      streamIdleMs: 60_000,
      historyTurns: 10,
      retentionDays: 30,
    });
    expect(
      problemsOf({
        ...base,
        SWITCHBOARD_RETENTION_DAYS: '0',
        SWITCHBOARD_MAX_MESSAGE_BYTES: 'lots',
        SWITCHBOARD_STREAM_IDLE_MS: '50',
      }).problems,
    ).toEqual([
      { variable: 'SWITCHBOARD_MAX_MESSAGE_BYTES', message: 'must be a whole number' },
      {
        variable: 'SWITCHBOARD_STREAM_IDLE_MS',
        message:
          'must be at least 1000 ms (a stream without events is ended after it; default 300000, 5 minutes)',
      },
      { variable: 'SWITCHBOARD_RETENTION_DAYS', message: 'must be at least 1' },
    ]);
  });

  describe('an identity provider (SWITCHBOARD_OIDC_*)', () => {
    const idp = {
      SWITCHBOARD_OIDC_ISSUER: 'https://login.example.com/realms/acme',
      SWITCHBOARD_OIDC_AUDIENCE: 'switchboard',
      SWITCHBOARD_OIDC_JWKS_URL: 'https://login.example.com/realms/acme/protocol/openid-connect/certs',
    };
    const load = (env: NodeJS.ProcessEnv) =>
      loadServiceConfig({
        env: { ...supervisorBase, ...env },
        service: 'supervisor',
        defaultPort: 4100,
        public: true,
      });

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
        userClaim: 'sub',
        rolesClaim: 'realm_access.roles',
        operatorRole: 'support-lead',
        clockToleranceSec: 10,
      });
      expect(config.userTokens).toEqual({});
      expect(config.operatorTokens).toEqual({});
      expect(
        load({ ...idp, SWITCHBOARD_OIDC_AUDIENCE: 'switchboard, orders-api' }).identityProvider?.audience,
      ).toEqual(['switchboard', 'orders-api']);
    });

    it('reads the 0.2 name of the user claim variable, with a note; both set to different claims is an error', () => {
      const old = load({ ...idp, SWITCHBOARD_OIDC_CUSTOMER_CLAIM: 'preferred_username' });
      expect(old.identityProvider).toMatchObject({ userClaim: 'preferred_username' });
      expect(old.deprecations).toEqual([
        'SWITCHBOARD_OIDC_CUSTOMER_CLAIM is deprecated and read for one more release: rename it SWITCHBOARD_OIDC_USER_CLAIM',
      ]);
      expect(load({ ...idp, SWITCHBOARD_OIDC_USER_CLAIM: 'email' }).identityProvider).toMatchObject({
        userClaim: 'email',
      });
      expect(
        problemsOf(
          { ...base, ...idp, SWITCHBOARD_OIDC_CUSTOMER_CLAIM: 'sub', SWITCHBOARD_OIDC_USER_CLAIM: 'email' },
          true,
        ).message,
      ).toContain(
        'SWITCHBOARD_OIDC_CUSTOMER_CLAIM: is the deprecated name of SWITCHBOARD_OIDC_USER_CLAIM and both are set, to different claims; keep only SWITCHBOARD_OIDC_USER_CLAIM',
      );
    });

    it('needs its issuer, audience and JWKS URL together, and says which is missing', () => {
      const error = problemsOf({ ...base, SWITCHBOARD_OIDC_ISSUER: idp.SWITCHBOARD_OIDC_ISSUER }, true);
      expect(error.problems.map((problem) => problem.variable)).toEqual([
        'SWITCHBOARD_OIDC_AUDIENCE',
        'SWITCHBOARD_OIDC_JWKS_URL',
        'SWITCHBOARD_USER_TOKENS',
        'SWITCHBOARD_OPERATOR_TOKENS',
      ]);
      expect(error.message).toContain(
        'SWITCHBOARD_OIDC_AUDIENCE: is required with SWITCHBOARD_OIDC_ISSUER: an identity provider needs SWITCHBOARD_OIDC_ISSUER, SWITCHBOARD_OIDC_AUDIENCE, SWITCHBOARD_OIDC_JWKS_URL together (or unset them all)',
      );
      expect(error.message).toContain(
        'SWITCHBOARD_USER_TOKENS: is required for a public service without an identity provider (SWITCHBOARD_OIDC_*)',
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
        load({ ...idp, SWITCHBOARD_OIDC_JWKS_URL: 'http://127.0.0.1:8080/realms/acme/certs' })
          .identityProvider?.jwksUrl,
      ).toBe('http://127.0.0.1:8080/realms/acme/certs');
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

  describe('the service keys (SWITCHBOARD_SERVICE_KEY, SWITCHBOARD_TRUSTED_KEYS)', () => {
    const orders = generateServiceKey({ service: 'orders', label: 'k1' });
    const comms = generateServiceKey({ service: 'comms', label: 'k1' });
    const keysOf = (problems: readonly { variable: string; message: string }[]) =>
      problems.filter((problem) => problem.variable.startsWith('SWITCHBOARD_'));

    it('reads the private key and an inline trusted set, or a file of one', () => {
      const trusted = { keys: [orders.publicKey, comms.publicKey] };
      const inline = loadServiceConfig({
        env: {
          SWITCHBOARD_SERVICE_KEY: JSON.stringify(orders.privateKey),
          SWITCHBOARD_TRUSTED_KEYS: JSON.stringify(trusted),
        },
        service: 'orders',
        defaultPort: 1,
      });
      expect(inline.serviceKey.kid).toBe('orders:k1');
      expect(inline.trustedKeys).toEqual({ kind: 'inline', keySet: trusted });
      const dir = mkdtempSync(join(tmpdir(), 'sb-keys-'));
      try {
        writeFileSync(join(dir, 'keys.json'), JSON.stringify(trusted));
        const fromFile = loadServiceConfig({
          env: {
            SWITCHBOARD_SERVICE_KEY: JSON.stringify(orders.privateKey),
            SWITCHBOARD_TRUSTED_KEYS: `file:${join(dir, 'keys.json')}`,
          },
          service: 'orders',
          defaultPort: 1,
        });
        expect(fromFile.trustedKeys).toEqual({ kind: 'file', path: join(dir, 'keys.json') });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      const url = loadServiceConfig({
        env: {
          SWITCHBOARD_SERVICE_KEY: JSON.stringify(orders.privateKey),
          SWITCHBOARD_TRUSTED_KEYS: 'https://keys.example.com/switchboard/jwks.json',
        },
        service: 'orders',
        defaultPort: 1,
      });
      expect(url.trustedKeys).toEqual({ kind: 'url', url: 'https://keys.example.com/switchboard/jwks.json' });
    });

    it('says how to make a key when none is set', () => {
      expect(keysOf(problemsOf({}).problems)).toEqual([
        {
          variable: 'SWITCHBOARD_SERVICE_KEY',
          message:
            "is required: orders's private signing key, a JWK; make one with `switchboard keys generate --service orders`",
        },
        {
          variable: 'SWITCHBOARD_TRUSTED_KEYS',
          message:
            'is required: the public keys of every service (a JWKS {"keys":[...]}, inline, as file:/path, or an https:// URL)',
        },
      ]);
    });

    it('refuses another service’s key, a public key given as the private one, and a set without its own key', () => {
      const otherService = problemsOf({
        SWITCHBOARD_SERVICE_KEY: JSON.stringify(comms.privateKey),
        SWITCHBOARD_TRUSTED_KEYS: JSON.stringify({ keys: [comms.publicKey] }),
      });
      expect(otherService.message).toContain(
        'SWITCHBOARD_SERVICE_KEY: the key\'s kid "comms:k1" names the service "comms", not "orders": give orders its own key (switchboard keys generate --service orders)',
      );
      const publicOnly = problemsOf({
        SWITCHBOARD_SERVICE_KEY: JSON.stringify(orders.publicKey),
        SWITCHBOARD_TRUSTED_KEYS: JSON.stringify({ keys: [orders.publicKey] }),
      });
      expect(publicOnly.message).toContain(
        'SWITCHBOARD_SERVICE_KEY: d is required: this must be the private key',
      );
      const withoutOwn = problemsOf({
        SWITCHBOARD_SERVICE_KEY: JSON.stringify(orders.privateKey),
        SWITCHBOARD_TRUSTED_KEYS: JSON.stringify({ keys: [comms.publicKey] }),
      });
      expect(withoutOwn.message).toContain(
        'SWITCHBOARD_TRUSTED_KEYS: does not list this service\'s own public key (kid "orders:k1")',
      );
      const rotatedWrong = problemsOf({
        SWITCHBOARD_SERVICE_KEY: JSON.stringify(orders.privateKey),
        SWITCHBOARD_TRUSTED_KEYS: JSON.stringify({
          keys: [{ ...generateServiceKey({ service: 'orders', label: 'k1' }).publicKey }],
        }),
      });
      expect(rotatedWrong.message).toContain('lists the kid "orders:k1" with another public key');
    });

    it('refuses a trusted set with a private key in it, or one that is not a key set, or a file that is not there', () => {
      const own = JSON.stringify(orders.privateKey);
      const leaked = problemsOf({
        SWITCHBOARD_SERVICE_KEY: own,
        SWITCHBOARD_TRUSTED_KEYS: JSON.stringify({ keys: [orders.privateKey] }),
      });
      expect(leaked.message).toContain(
        'SWITCHBOARD_TRUSTED_KEYS: keys[0] is a private key: list only public keys (without "d") in the trusted set',
      );
      const garbage = problemsOf({ SWITCHBOARD_SERVICE_KEY: own, SWITCHBOARD_TRUSTED_KEYS: 'orders,comms' });
      expect(garbage.message).toContain('SWITCHBOARD_TRUSTED_KEYS: is neither a JSON Web Key Set');
      const plainHttp = problemsOf({
        SWITCHBOARD_SERVICE_KEY: own,
        SWITCHBOARD_TRUSTED_KEYS: 'http://keys.example.com/jwks',
      });
      expect(plainHttp.message).toContain('SWITCHBOARD_TRUSTED_KEYS: must be an https:// URL');
      const missing = problemsOf({
        SWITCHBOARD_SERVICE_KEY: own,
        SWITCHBOARD_TRUSTED_KEYS: 'file:/nonexistent/switchboard/keys.json',
      });
      expect(missing.message).toContain(
        'SWITCHBOARD_TRUSTED_KEYS: names the file /nonexistent/switchboard/keys.json, which does not exist',
      );
    });
  });
});
