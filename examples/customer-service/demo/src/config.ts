import { resolve } from 'node:path';
import { type ModelConfig, readModelConfig } from '@switchboard/config';
import { z } from 'zod';

/** The agents of the system, in the order the demo names them. */
export const DEMO_AGENTS = ['supervisor', 'orders', 'inventory', 'comms'] as const;

const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), schema);

const httpUrl = z
  .string()
  .trim()
  .regex(/^https?:\/\/[^/\s]+/, 'must be an http:// or https:// URL, e.g. http://localhost:4318');

const Env = z.object({
  SWITCHBOARD_DEMO_PORT: optional(
    z.coerce
      .number({ error: 'must be a port number, e.g. 4200' })
      .int('must be a whole number, e.g. 4200')
      .min(1, 'must be 1-65532 (the workers take the next three ports)')
      .max(65_532, 'must be 1-65532 (the workers take the next three ports)')
      .default(4100),
  ),
  SWITCHBOARD_DEMO_NAMESPACE: optional(
    z
      .string()
      .trim()
      .regex(/^[a-z][a-z0-9-]{0,31}$/, 'must be lower-case letters, digits or "-", e.g. "demo"')
      .default('demo'),
  ),
  REDIS_URL: optional(
    z
      .string()
      .trim()
      .regex(/^rediss?:\/\/\S+$/, 'must be a redis:// URL, e.g. redis://127.0.0.1:6379')
      .default('redis://127.0.0.1:6379'),
  ),
  SWITCHBOARD_SPAN_FILE: optional(z.string().trim().default('.switchboard/spans.jsonl')),
  SWITCHBOARD_DEMO_DEADLINE_MS: optional(
    z.coerce
      .number({ error: 'must be a number of milliseconds, e.g. 180000' })
      .int('must be a whole number of milliseconds, e.g. 180000')
      .positive('must be a positive number of milliseconds, e.g. 180000')
      .optional(),
  ),
  OTEL_EXPORTER_OTLP_ENDPOINT: optional(httpUrl.optional()),
  SWITCHBOARD_JAEGER_URL: optional(httpUrl.optional()),
});

/** Settings the old single-agent demo read; the services read others, so a leftover one would mislead. */
const RETIRED: Readonly<Record<string, string>> = {
  SWITCHBOARD_MODEL_API_KEY: 'OPENAI_API_KEY',
  SWITCHBOARD_MODEL_BASE_URL: 'OPENAI_BASE_URL',
};

/** The demo's configuration, read from the environment by {@link loadConfig}. */
export interface DemoConfig {
  /** The supervisor's port (`SWITCHBOARD_DEMO_PORT`, default 4100); the workers take the next three. */
  port: number;
  /** The Redis key namespace of the demo's system (`SWITCHBOARD_DEMO_NAMESPACE`, default `demo`). */
  namespace: string;
  /** `REDIS_URL`, default `redis://127.0.0.1:6379`. */
  redisUrl: string;
  /** Absolute path of the span file the services write and `switchboard trace` reads. */
  spanFile: string;
  /** Where the services export spans instead, when set (`OTEL_EXPORTER_OTLP_ENDPOINT`). */
  otlpEndpoint: string | undefined;
  /** Jaeger's UI and query API (`SWITCHBOARD_JAEGER_URL`), read by the CLI. */
  jaegerUrl: string | undefined;
  /**
   * Longest the demo may run before it stops and fails, saying where it was and what the services
   * logged (`SWITCHBOARD_DEMO_DEADLINE_MS`; default none). For the demo as a smoke test.
   */
  deadlineMs: number | undefined;
  /** The model each agent's service will run, as the services read it from the same environment. */
  models: readonly { agent: string; model: ModelConfig }[];
}

/** Why the configuration was refused, one line per variable. */
export class ConfigError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
    this.name = new.target.name;
    this.problems = problems;
  }
}

/**
 * Reads the demo's configuration from the environment. Every variable is optional; the model
 * settings (`OPENAI_API_KEY`, `SWITCHBOARD_MODEL`, `OPENAI_BASE_URL`, and per agent e.g.
 * `ORDERS_MODEL`) are read as the services read them, so a wrong one is refused here, naming it,
 * before anything starts. Throws {@link ConfigError} listing every wrong variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv): DemoConfig {
  const problems: string[] = [];
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      problems.push(`${issue.path.map(String).join('.')} ${issue.message}`);
  }
  for (const [old, now] of Object.entries(RETIRED)) {
    if (env[old]?.trim())
      problems.push(`${old} is not read any more: the services read ${now}; set that instead`);
  }
  const models: { agent: string; model: ModelConfig }[] = [];
  for (const agent of DEMO_AGENTS) {
    const read = readModelConfig(env, agent);
    if ('problems' in read) {
      for (const problem of read.problems) {
        const line = `${problem.variable} ${problem.message}`;
        if (!problems.includes(line)) problems.push(line);
      }
    } else models.push({ agent, model: read.config });
  }
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const data = parsed.data;
  return {
    port: data.SWITCHBOARD_DEMO_PORT,
    namespace: data.SWITCHBOARD_DEMO_NAMESPACE,
    redisUrl: data.REDIS_URL,
    spanFile: resolve(data.SWITCHBOARD_SPAN_FILE),
    otlpEndpoint: data.OTEL_EXPORTER_OTLP_ENDPOINT,
    jaegerUrl: data.SWITCHBOARD_JAEGER_URL,
    deadlineMs: data.SWITCHBOARD_DEMO_DEADLINE_MS,
    models,
  };
}
