import { publicKeyOf } from '@switchboard/identity';
import type { TeamAccess } from './team.ts';
import { tokensToIds } from './team.ts';

/**
 * The settings every service of a running team reads (`loadServiceConfig`), as environment
 * variables: its Redis and namespace, the trusted keys (every service's public key), and, for the
 * team's front (its supervisor, `front: true`, the default), the users' and the operator's tokens.
 * A worker (`front: false`) gets no user or operator token, as in Compose and Kubernetes: it takes
 * service callers only, so a user cannot drive a worker's task directly, and limits count per user
 * where users enter. A service adds its own `SWITCHBOARD_SERVICE_KEY` ({@link serviceKeyEnvironment})
 * and `PORT`. What a launcher gives each child process, and what an in-process run reads its
 * services' configuration from.
 */
export function teamEnvironment(
  access: TeamAccess,
  { front = true }: { front?: boolean } = {},
): Record<string, string> {
  return {
    REDIS_URL: access.redisUrl,
    SWITCHBOARD_NAMESPACE: access.namespace,
    SWITCHBOARD_TRUSTED_KEYS: JSON.stringify({ keys: Object.values(access.serviceKeys).map(publicKeyOf) }),
    ...(front
      ? {
          SWITCHBOARD_USER_TOKENS: Object.entries(tokensToIds(access.users))
            .map(([secret, id]) => `${secret}=${id}`)
            .join(','),
          SWITCHBOARD_OPERATOR_TOKENS: `${access.adminToken}=operator`,
        }
      : {}),
  };
}

/** A service's own signing key as its environment holds it (`SWITCHBOARD_SERVICE_KEY`). */
export function serviceKeyEnvironment(access: TeamAccess, service: string): Record<string, string> {
  const key = access.serviceKeys[service];
  return key ? { SWITCHBOARD_SERVICE_KEY: JSON.stringify(key) } : {};
}
