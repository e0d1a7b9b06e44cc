import { publicKeyOf } from '@switchboard/identity';
import type { TeamAccess } from './team.ts';
import { tokensToIds } from './team.ts';

/**
 * The settings every service of a running team reads (`loadServiceConfig`), as environment
 * variables: its Redis and namespace, the trusted keys (every service's public key), the users'
 * and the operator's tokens. A service adds its own `SWITCHBOARD_SERVICE_KEY` ({@link serviceKeyEnvironment})
 * and `PORT`. What a launcher gives each child process, and what an in-process run reads its
 * services' configuration from.
 */
export function teamEnvironment(access: TeamAccess): Record<string, string> {
  return {
    REDIS_URL: access.redisUrl,
    SWITCHBOARD_NAMESPACE: access.namespace,
    SWITCHBOARD_TRUSTED_KEYS: JSON.stringify({ keys: Object.values(access.serviceKeys).map(publicKeyOf) }),
    SWITCHBOARD_USER_TOKENS: Object.entries(tokensToIds(access.users))
      .map(([secret, id]) => `${secret}=${id}`)
      .join(','),
    SWITCHBOARD_OPERATOR_TOKENS: `${access.adminToken}=operator`,
  };
}

/** A service's own signing key as its environment holds it (`SWITCHBOARD_SERVICE_KEY`). */
export function serviceKeyEnvironment(access: TeamAccess, service: string): Record<string, string> {
  const key = access.serviceKeys[service];
  return key ? { SWITCHBOARD_SERVICE_KEY: JSON.stringify(key) } : {};
}
