import { readFileSync } from 'node:fs';
import { parseClusterNodes, type RedisConnectionOptions } from '@switchboard/redis';
import type { ConfigProblem } from './config-error.ts';
import { MAKE_A_SECRET } from './secret-strength.ts';

const URL_VARIABLE = 'REDIS_URL';
const NODES_VARIABLE = 'REDIS_CLUSTER_NODES';
const TLS_VARIABLE = 'REDIS_TLS';
const CA_VARIABLE = 'REDIS_TLS_CA_FILE';

/**
 * Reads where Redis is: `REDIS_URL` (one node, default `redis://127.0.0.1:6379`; `rediss://` for TLS)
 * or `REDIS_CLUSTER_NODES` (a Redis Cluster: `host:port` entries separated by commas), with
 * `REDIS_USERNAME` / `REDIS_PASSWORD` (an ACL user), `REDIS_TLS` (`true` or `false`) and
 * `REDIS_TLS_CA_FILE` (a PEM file of the CAs a private Redis certificate chains to) for either.
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
  const caFile = env[CA_VARIABLE]?.trim() || undefined;
  let tlsCa: string | undefined;
  if (caFile !== undefined) {
    const secure = tlsText === 'true' || (nodes === undefined && url?.startsWith('rediss://') === true);
    if (!secure) {
      problems.push({
        variable: CA_VARIABLE,
        message: `is set but the connection is not TLS; set ${TLS_VARIABLE}=true (or a rediss:// ${URL_VARIABLE}), or unset ${CA_VARIABLE}`,
      });
    } else {
      try {
        tlsCa = readFileSync(caFile, 'utf8');
        if (!tlsCa.includes('-----BEGIN CERTIFICATE-----')) {
          problems.push({
            variable: CA_VARIABLE,
            message: `${caFile} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`,
          });
        }
      } catch (error) {
        problems.push({
          variable: CA_VARIABLE,
          message: `cannot read ${caFile} (${(error as NodeJS.ErrnoException).code ?? 'error'}); give the path of a PEM file of CA certificates`,
        });
      }
    }
  }
  // Only the templates' own placeholder: a password is whatever the Redis it opens was given.
  if (env.REDIS_PASSWORD && /replace_?me|change_?me/i.test(env.REDIS_PASSWORD)) {
    problems.push({
      variable: 'REDIS_PASSWORD',
      message: `is a placeholder; give the password Redis asks for (its requirepass), and for a Redis you set up, ${MAKE_A_SECRET}`,
    });
  }
  if (problems.length > 0) return { ok: false, problems };
  const username = env.REDIS_USERNAME?.trim() || undefined;
  const password = env.REDIS_PASSWORD || undefined;
  return {
    ok: true,
    config: {
      ...(nodes === undefined ? { url: url ?? 'redis://127.0.0.1:6379' } : { clusterNodes: nodes }),
      ...(tlsText === undefined ? {} : { tls: tlsText === 'true' }),
      ...(tlsCa === undefined ? {} : { tlsCa }),
      ...(username === undefined ? {} : { username }),
      ...(password === undefined ? {} : { password }),
    },
  };
}
