import { hostname } from 'node:os';
import {
  ConfigError,
  type ConfigProblem,
  HttpUrl,
  Millis,
  type ModelConfig,
  Port,
  readModelConfig,
  readRedisConfig,
  Switch,
  TokenList,
  WholeNumber,
} from '@switchboard/config';
import {
  type JwtAuthenticatorOptions,
  type ServicePrivateKey,
  staticTokenProblems,
  type TrustedKeysSource,
} from '@switchboard/identity';
import type { RedisConnectionOptions } from '@switchboard/redis';
import { DEFAULT_SPAN_FILE } from '@switchboard/telemetry';
import { z } from 'zod';
import { type CardConfig, readCardConfig } from './card-config.ts';
import {
  LEGACY_USER_TOKENS_VARIABLE,
  type LegacyServiceConfigFields,
  legacyServiceConfigFields,
} from './deprecated.ts';
import { type EvalReportsConfig, readEvalReportsConfig } from './eval-reports-config.ts';
import { readIdentityProvider } from './oidc-config.ts';
import { readServiceKeysConfig } from './service-keys-config.ts';
import { readShadowConfig, type ShadowConfig } from './shadow-config.ts';

/** Everything a Switchboard service reads from its environment, checked. */
export interface ServiceConfig extends LegacyServiceConfigFields {
  /** The agent this service hosts, e.g. `orders`. */
  service: string;
  /**
   * Where Redis is and how to log in: one node (`REDIS_URL`) or a Redis Cluster
   * (`REDIS_CLUSTER_NODES`), with `REDIS_USERNAME`, `REDIS_PASSWORD` and `REDIS_TLS`.
   */
  redis: RedisConnectionOptions;
  /** `REDIS_URL` (default `redis://127.0.0.1:6379`); undefined on a Redis Cluster. */
  redisUrl: string | undefined;
  /** Namespace of every Redis key of the system (`SWITCHBOARD_NAMESPACE`, default `switchboard`). */
  namespace: string;
  host: string;
  port: number;
  /** The base URL clients reach this service at, published in its card. */
  publicUrl: string;
  /**
   * This service's private signing key (`SWITCHBOARD_SERVICE_KEY`, an Ed25519 JWK whose kid is
   * `<service>:<label>`): it signs the assertions its requests to peers carry.
   */
  serviceKey: ServicePrivateKey;
  /**
   * The public keys of every service whose assertions it accepts (`SWITCHBOARD_TRUSTED_KEYS`: a JWKS
   * inline, `file:/path` read again as keys are added, or an `https://` URL).
   */
  trustedKeys: TrustedKeysSource;
  /**
   * How its agent card is published: the shape a request without `A2A-Version` gets
   * (`SWITCHBOARD_CARD_UNVERSIONED`, default `hybrid`) and whether it is signed with `serviceKey`
   * (`SWITCHBOARD_SIGN_CARD`, default true).
   */
  card: CardConfig;
  /**
   * The services whose assertions may act for someone else, a user or an operator
   * (`SWITCHBOARD_DELEGATING_SERVICES`, comma-separated, default `supervisor`); any other
   * service's assertion must be about itself.
   */
  delegatingServices: string[];
  /**
   * End users who call the A2A HTTP routes: token → user id (`SWITCHBOARD_USER_TOKENS`; the 0.2
   * variable is still read, with a note in {@link ServiceConfig.deprecations}).
   */
  userTokens: Record<string, string>;
  /** Operators who decide approvals: token → operator name (`SWITCHBOARD_OPERATOR_TOKENS`). */
  operatorTokens: Record<string, string>;
  /**
   * The identity provider whose bearer JWTs are accepted too (`SWITCHBOARD_OIDC_*`): users, and
   * operators by its operator role. Undefined without one.
   */
  identityProvider: JwtAuthenticatorOptions | undefined;
  model: ModelConfig;
  /**
   * The agent's shadow (`<AGENT>_SHADOW_*`, see {@link ShadowConfig}): a candidate that gets a copy of
   * a share of its new requests and never answers. Undefined: no shadow.
   */
  shadow: ShadowConfig | undefined;
  /** OTLP/HTTP base URL (`OTEL_EXPORTER_OTLP_ENDPOINT`); without it spans go to `spanFile`. */
  otlpEndpoint: string | undefined;
  /**
   * Where spans go without an OTLP endpoint (`SWITCHBOARD_SPAN_FILE`, default
   * `.switchboard/spans.jsonl` under the working directory; the image sets one under `/tmp`).
   */
  spanFile: string;
  /**
   * Longest value of one span attribute, in characters (`SWITCHBOARD_SPAN_ATTRIBUTE_MAX_LENGTH`,
   * default 1024): longer ones are cut.
   */
  spanAttributeMaxLength: number;
  jaegerUiUrl: string | undefined;
  /** Where the console's evals page reads eval reports (`SWITCHBOARD_EVAL_REPORTS`, `SWITCHBOARD_EVAL_BASELINE`). */
  evalReports: EvalReportsConfig;
  /** Longest one delegation may take (`SWITCHBOARD_HOP_TIMEOUT_MS`, default 60 000). */
  hopTimeoutMs: number;
  /**
   * How long a delegation waits while its worker has no live replica in the registry before it
   * fails (`SWITCHBOARD_WORKER_WAIT_MS`, default 30 000, or the hop timeout when that is shorter).
   */
  workerWaitMs: number;
  /** Longest a SIGTERM drain waits for running tasks (`SWITCHBOARD_DRAIN_MS`, default 30 000). */
  drainMs: number;
  /**
   * How long a worker's claim on a job lasts unrenewed (`SWITCHBOARD_JOB_LOCK_MS`, default 30 000):
   * a crashed replica's jobs are taken over by another after about this long.
   */
  jobLockMs: number;
  /**
   * What one user may ask of this service: requests per minute (`SWITCHBOARD_RATE_LIMIT_PER_MIN`,
   * default 60), tasks running at once (`SWITCHBOARD_MAX_TASKS_IN_FLIGHT`, default 5) and bytes of
   * content per message (`SWITCHBOARD_MAX_MESSAGE_BYTES`, default 16 384). `Infinity` where the
   * variable is 0 (no limit), and streams open at once (`SWITCHBOARD_MAX_OPEN_STREAMS`, default 10).
   * Operators and services keep `hostAgent`'s own limits.
   */
  userLimits: {
    requestsPerMinute: number;
    maxTasksInFlight: number;
    maxMessageBytes: number;
    maxOpenStreams: number;
  };
  /**
   * How long a `SubscribeToTask` stream may go without an event before the service ends it, with the
   * task's status and the position to resume from (`SWITCHBOARD_STREAM_IDLE_MS`, default 300 000).
   */
  streamIdleMs: number;
  /**
   * The longest id a request may carry, whoever sends it (`SWITCHBOARD_MAX_ID_BYTES`, default 128):
   * `contextId`, `messageId`, task ids, the tenant (see `IdLimits`).
   */
  idLimits: { maxIdBytes: number };
  /**
   * What the environment still sets under a deprecated name, each a sentence that says what to
   * rename (e.g. the 0.2 user tokens variable); the service logs each once at start. Empty when none.
   */
  deprecations: string[];
  /** The turns of a conversation its run state keeps (`SWITCHBOARD_HISTORY_TURNS`, default 50). */
  historyTurns: number;
  /**
   * How long tasks, conversations, intents and approvals are kept after their last change
   * (`SWITCHBOARD_RETENTION_DAYS`, default 7).
   */
  retentionDays: number;
  /**
   * How many approvals one user's requests may have pending on the board at once
   * (`SWITCHBOARD_MAX_PENDING_APPROVALS`, default 20); a call beyond it is refused, not asked.
   */
  maxPendingApprovals: number;
  /**
   * Whether a completed task's final status repeats its answer (`SWITCHBOARD_ANSWER_IN_STATUS`,
   * default false: the answer is the `answer` artifact alone, shown once by every client).
   */
  answerInStatus: boolean;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** `deployment.environment.name` of its traces (`NODE_ENV`, default `development`). */
  environment: string;
  instanceId: string;
}

/** What a service needs beyond the common settings. */
export interface LoadServiceConfigOptions {
  env: NodeJS.ProcessEnv;
  /** The agent's name: also the prefix of its own model variables (`ORDERS_MODEL`). */
  service: string;
  defaultPort: number;
  /**
   * Whether this service faces users (needs user and operator tokens, or an identity provider):
   * the supervisor.
   */
  public?: boolean;
}

const Common = z.object({
  SWITCHBOARD_NAMESPACE: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,31}$/, 'must be lower-case letters, digits or "-", e.g. "switchboard"')
    .default('switchboard'),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  PORT: Port.optional(),
  PUBLIC_URL: HttpUrl.optional(),
  SWITCHBOARD_USER_TOKENS: TokenList.optional(),
  [LEGACY_USER_TOKENS_VARIABLE]: TokenList.optional(),
  SWITCHBOARD_OPERATOR_TOKENS: TokenList.optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: HttpUrl.optional(),
  SWITCHBOARD_SPAN_FILE: z.string().trim().min(1).default(DEFAULT_SPAN_FILE),
  SWITCHBOARD_JAEGER_URL: HttpUrl.optional(),
  SWITCHBOARD_HOP_TIMEOUT_MS: Millis.default(60_000),
  SWITCHBOARD_WORKER_WAIT_MS: Millis.optional(),
  SWITCHBOARD_DRAIN_MS: Millis.default(30_000),
  SWITCHBOARD_JOB_LOCK_MS: Millis.min(1_000, 'must be at least 1000 ms').default(30_000),
  SWITCHBOARD_RATE_LIMIT_PER_MIN: WholeNumber(0).default(60),
  SWITCHBOARD_MAX_TASKS_IN_FLIGHT: WholeNumber(0).default(5),
  SWITCHBOARD_MAX_MESSAGE_BYTES: WholeNumber(1024).default(16 * 1024),
  SWITCHBOARD_MAX_OPEN_STREAMS: WholeNumber(0).default(10),
  SWITCHBOARD_STREAM_IDLE_MS: Millis.min(
    1_000,
    'must be at least 1000 ms (a stream without events is ended after it; default 300000, 5 minutes)',
  ).default(300_000),
  SWITCHBOARD_MAX_ID_BYTES: WholeNumber(36).max(1024, 'must be at most 1024').default(128),
  SWITCHBOARD_SPAN_ATTRIBUTE_MAX_LENGTH: WholeNumber(32).default(1024),
  SWITCHBOARD_DELEGATING_SERVICES: z
    .string()
    .regex(
      /^\s*[a-z][a-z0-9-]*(\s*,\s*[a-z][a-z0-9-]*)*\s*$/,
      'must be service names separated by commas, e.g. "supervisor"',
    )
    .default('supervisor')
    .transform((list) => list.split(',').map((name) => name.trim())),
  SWITCHBOARD_HISTORY_TURNS: WholeNumber(1).default(50),
  SWITCHBOARD_RETENTION_DAYS: WholeNumber(1).max(3650, 'must be at most 3650').default(7),
  SWITCHBOARD_MAX_PENDING_APPROVALS: WholeNumber(1).max(10_000, 'must be at most 10000').default(20),
  SWITCHBOARD_ANSWER_IN_STATUS: Switch.default(false),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  NODE_ENV: z.string().trim().min(1).default('development'),
});

/**
 * The user tokens: `SWITCHBOARD_USER_TOKENS`, else the 0.2 variable with a note saying to rename it;
 * both with different values is a problem, since only one can be meant.
 */
function readUserTokens(
  data: Pick<z.infer<typeof Common>, 'SWITCHBOARD_USER_TOKENS' | typeof LEGACY_USER_TOKENS_VARIABLE>,
): { tokens: Record<string, string> | undefined; note?: string } | { problem: ConfigProblem } {
  const current = data.SWITCHBOARD_USER_TOKENS;
  const legacy = data[LEGACY_USER_TOKENS_VARIABLE];
  if (legacy === undefined) return { tokens: current };
  const same = current !== undefined && JSON.stringify(sorted(current)) === JSON.stringify(sorted(legacy));
  if (current !== undefined && !same) {
    return {
      problem: {
        variable: LEGACY_USER_TOKENS_VARIABLE,
        message: `is the deprecated name of SWITCHBOARD_USER_TOKENS and both are set, with different tokens; keep only SWITCHBOARD_USER_TOKENS`,
      },
    };
  }
  return {
    tokens: current ?? legacy,
    note: `${LEGACY_USER_TOKENS_VARIABLE} is deprecated and read for one more release: rename it SWITCHBOARD_USER_TOKENS${current === undefined ? '' : ' (both are set, to the same tokens: remove the old one)'}`,
  };
}

const sorted = (tokens: Record<string, string>) =>
  Object.entries(tokens).sort(([a], [b]) => a.localeCompare(b));

/** Unset and empty are the same: a variable exported as "" is not set. */
const present = (env: NodeJS.ProcessEnv) =>
  Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ''));

/**
 * Reads and checks a service's environment; throws {@link ConfigError} naming every variable that
 * is wrong or missing. The app reads its environment and passes it in; nothing else reads it.
 *
 * @example
 * // in an app (or through `runWorkerService`), with the process's environment as `env`:
 * const config = loadServiceConfig({ env, service: 'orders', defaultPort: 4101 });
 */
export function loadServiceConfig({
  env,
  service,
  defaultPort,
  public: isPublic = false,
}: LoadServiceConfigOptions): ServiceConfig {
  const problems: ConfigProblem[] = [];
  const parsed = Common.safeParse(present(env));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      problems.push({ variable: String(issue.path[0] ?? '?'), message: issue.message });
    }
  }
  const model = readModelConfig(env, service);
  if ('problems' in model) problems.push(...model.problems);
  const identityProvider = readIdentityProvider(env);
  if ('problems' in identityProvider) problems.push(...identityProvider.problems);
  const keys = readServiceKeysConfig(env, service);
  if (!keys.ok) problems.push(...keys.problems);
  const card = readCardConfig(env);
  if (!card.ok) problems.push(...card.problems);
  const shadow = readShadowConfig(env, service);
  if (!shadow.ok) problems.push(...shadow.problems);
  const redis = readRedisConfig(env);
  if (!redis.ok) problems.push(...redis.problems);
  const evalReports = readEvalReportsConfig(env);
  if (!evalReports.ok) problems.push(...evalReports.problems);
  const users = parsed.success ? readUserTokens(parsed.data) : undefined;
  if (users && 'problem' in users) problems.push(users.problem);
  const userTokens = users && 'tokens' in users ? users.tokens : undefined;
  // A public service's users and operators sign in with tokens, or with the identity provider.
  if (parsed.success && isPublic && !('config' in identityProvider && identityProvider.config)) {
    const given = {
      SWITCHBOARD_USER_TOKENS:
        parsed.data.SWITCHBOARD_USER_TOKENS ?? parsed.data[LEGACY_USER_TOKENS_VARIABLE],
      SWITCHBOARD_OPERATOR_TOKENS: parsed.data.SWITCHBOARD_OPERATOR_TOKENS,
    };
    for (const variable of ['SWITCHBOARD_USER_TOKENS', 'SWITCHBOARD_OPERATOR_TOKENS'] as const) {
      if (!given[variable]) {
        problems.push({
          variable,
          message:
            'is required for a public service without an identity provider (SWITCHBOARD_OIDC_*): token=name pairs, e.g. "tok-7f3a…=alice"',
        });
      }
    }
  }
  if (parsed.success) {
    const tokens = {
      users: userTokens ?? {},
      operators: parsed.data.SWITCHBOARD_OPERATOR_TOKENS ?? {},
    };
    for (const message of staticTokenProblems(tokens)) {
      problems.push({ variable: 'SWITCHBOARD_USER_TOKENS/SWITCHBOARD_OPERATOR_TOKENS', message });
    }
  }
  const wait = parsed.success ? parsed.data.SWITCHBOARD_WORKER_WAIT_MS : undefined;
  if (parsed.success && wait !== undefined && wait > parsed.data.SWITCHBOARD_HOP_TIMEOUT_MS) {
    problems.push({
      variable: 'SWITCHBOARD_WORKER_WAIT_MS',
      message: `must not be longer than SWITCHBOARD_HOP_TIMEOUT_MS (${parsed.data.SWITCHBOARD_HOP_TIMEOUT_MS} ms), which ends every delegation; lower it, or raise the hop timeout`,
    });
  }
  if (
    !parsed.success ||
    'problems' in model ||
    'problems' in identityProvider ||
    !keys.ok ||
    !card.ok ||
    !shadow.ok ||
    !redis.ok ||
    !evalReports.ok ||
    problems.length > 0
  )
    throw new ConfigError(service, problems);
  const c = parsed.data;
  const port = c.PORT ?? defaultPort;
  const userLimits = {
    requestsPerMinute: c.SWITCHBOARD_RATE_LIMIT_PER_MIN || Number.POSITIVE_INFINITY,
    maxTasksInFlight: c.SWITCHBOARD_MAX_TASKS_IN_FLIGHT || Number.POSITIVE_INFINITY,
    maxMessageBytes: c.SWITCHBOARD_MAX_MESSAGE_BYTES,
    maxOpenStreams: c.SWITCHBOARD_MAX_OPEN_STREAMS || Number.POSITIVE_INFINITY,
  };
  return {
    service,
    redis: redis.config,
    redisUrl: redis.config.url,
    namespace: c.SWITCHBOARD_NAMESPACE,
    host: c.HOST,
    port,
    publicUrl: (c.PUBLIC_URL ?? `http://${c.HOST === '0.0.0.0' ? '127.0.0.1' : c.HOST}:${port}`).replace(
      /\/+$/,
      '',
    ),
    serviceKey: keys.config.serviceKey,
    trustedKeys: keys.config.trustedKeys,
    card: card.config,
    delegatingServices: c.SWITCHBOARD_DELEGATING_SERVICES,
    userTokens: userTokens ?? {},
    operatorTokens: c.SWITCHBOARD_OPERATOR_TOKENS ?? {},
    identityProvider: identityProvider.config,
    model: model.config,
    shadow: shadow.config,
    otlpEndpoint: c.OTEL_EXPORTER_OTLP_ENDPOINT,
    spanFile: c.SWITCHBOARD_SPAN_FILE,
    spanAttributeMaxLength: c.SWITCHBOARD_SPAN_ATTRIBUTE_MAX_LENGTH,
    jaegerUiUrl: c.SWITCHBOARD_JAEGER_URL,
    evalReports: evalReports.config,
    hopTimeoutMs: c.SWITCHBOARD_HOP_TIMEOUT_MS,
    workerWaitMs: c.SWITCHBOARD_WORKER_WAIT_MS ?? Math.min(30_000, c.SWITCHBOARD_HOP_TIMEOUT_MS),
    drainMs: c.SWITCHBOARD_DRAIN_MS,
    jobLockMs: c.SWITCHBOARD_JOB_LOCK_MS,
    userLimits,
    streamIdleMs: c.SWITCHBOARD_STREAM_IDLE_MS,
    idLimits: { maxIdBytes: c.SWITCHBOARD_MAX_ID_BYTES },
    ...legacyServiceConfigFields(userTokens ?? {}, userLimits),
    deprecations: [
      ...(users && 'note' in users && users.note ? [users.note] : []),
      ...('deprecations' in identityProvider ? identityProvider.deprecations : []),
    ],
    historyTurns: c.SWITCHBOARD_HISTORY_TURNS,
    retentionDays: c.SWITCHBOARD_RETENTION_DAYS,
    maxPendingApprovals: c.SWITCHBOARD_MAX_PENDING_APPROVALS,
    answerInStatus: c.SWITCHBOARD_ANSWER_IN_STATUS,
    logLevel: c.LOG_LEVEL,
    environment: c.NODE_ENV,
    instanceId: `${service}-${hostname()}-${process.pid}`,
  };
}
