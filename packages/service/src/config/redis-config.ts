import { parseClusterNodes, type RedisConnectionOptions } from '@switchboard/a2a-bullmq';
import type { ConfigProblem } from './config-error.ts';

const URL_VARIABLE = 'REDIS_URL';
const NODES_VARIABLE = 'REDIS_CLUSTER_NODES';
const TLS_VARIABLE = 'REDIS_TLS';

/**
 * Reads where Redis is: `REDIS_URL` (one node, default `redis://127.0.0.1:6379`; `rediss://` for TLS)
 * or `REDIS_CLUSTER_NODES` (a Redis Cluster: `host:port` entries separated by commas), with
 * `REDIS_USERNAME` / `REDIS_PASSWORD` (an ACL user) and `REDIS_TLS` (`true` or `false`) for either.
 * Names what is wrong instead of falling back to a default.
 */
export function readRedisConfig(
  env: NodeJS.ProcessEnv,
): { ok: true; config: RedisConnectionOptions } | { ok: false; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  const url = env[URL_VARIABLE]?.trim() || undefined;
  const nodes = env[NODES_VARIABLE]?.trim() || undefined;
  const tlsText = env[TLS_VARIABLE]?.trim().toLowerCase() || undefined;
  if (tlsText !== undefined && tlsText !== 'true' && tlsText !== 'false') {
    problems.push({
      variable: TLS_VARIABLE,
      message: `must be true (connect to Redis with TLS) or false, not "${env[TLS_VARIABLE]?.trim()}"`,
    });
  }
  if (url !== undefined && nodes !== undefined) {
    problems.push({
      variable: NODES_VARIABLE,
      message: `is set together with ${URL_VARIABLE}; set ${URL_VARIABLE} for one Redis node or ${NODES_VARIABLE} for a Redis Cluster, not both`,
    });
  }
  if (url !== undefined && !/^rediss?:\/\/\S+$/.test(url)) {
    problems.push({ variable: URL_VARIABLE, message: 'must be a redis:// or rediss:// URL' });
  }
  if (nodes !== undefined) {
    try {
      parseClusterNodes(nodes);
    } catch (error) {
      problems.push({ variable: NODES_VARIABLE, message: (error as Error).message });
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  const username = env.REDIS_USERNAME?.trim() || undefined;
  const password = env.REDIS_PASSWORD || undefined;
  return {
    ok: true,
    config: {
      ...(nodes === undefined ? { url: url ?? 'redis://127.0.0.1:6379' } : { clusterNodes: nodes }),
      ...(tlsText === undefined ? {} : { tls: tlsText === 'true' }),
      ...(username === undefined ? {} : { username }),
      ...(password === undefined ? {} : { password }),
    },
  };
}
