import { type ConfigProblem, readRedisConfig } from '@switchboard/config';
import { type RedisConnectionOptions, redactUrl } from '@switchboard/redis';

const DEFAULT_REDIS = 'redis://127.0.0.1:6379';

/**
 * The Redis a command that reads the system's data talks to: `--redis-url` when given; else the
 * services' own settings (`REDIS_URL`, or a cluster's `REDIS_CLUSTER_NODES`, with `REDIS_USERNAME`,
 * `REDIS_PASSWORD`, `REDIS_TLS` and `REDIS_TLS_CA_FILE`), read as the services read them; else the
 * local system's (`.switchboard/dev.json`), else `redis://127.0.0.1:6379`.
 */
export function redisTarget({
  flag,
  env,
  devUrl,
}: {
  flag: string | undefined;
  env: NodeJS.ProcessEnv;
  devUrl: string | undefined;
}): { ok: true; options: RedisConnectionOptions } | { ok: false; problems: ConfigProblem[] } {
  if (flag) return { ok: true, options: { url: flag } };
  const read = readRedisConfig(env);
  if (!read.ok) return read;
  const fromEnv = Boolean(env.REDIS_URL?.trim() || env.REDIS_CLUSTER_NODES?.trim());
  return { ok: true, options: fromEnv ? read.config : { ...read.config, url: devUrl ?? DEFAULT_REDIS } };
}

/** Where `options` point, for messages: the URL without its password, or the cluster's nodes. */
export function describeRedis(options: RedisConnectionOptions): string {
  return options.clusterNodes === undefined
    ? redactUrl(String(options.url))
    : `the Redis Cluster at ${String(options.clusterNodes)}`;
}
