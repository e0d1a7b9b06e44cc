import { redisAnswers } from '@switchboard/cli';
import { createRedisConnection, scanKeys } from '@switchboard/redis';

/**
 * The key patterns of one namespace: the registry (`demo:…`), the shop (`{demo}:…`) and each
 * agent's queue, tasks and approvals (`{demo:orders}:…`). The namespace is `[a-z0-9-]`, so it
 * holds no glob character.
 */
const patterns = (namespace: string) => [`${namespace}:*`, `{${namespace}}:*`, `{${namespace}:*`];

/**
 * Deletes every key of the demo's namespace, so a run starts from a clean slate (no approvals,
 * tasks or queued jobs left by an earlier, interrupted run) and leaves nothing behind. Does
 * nothing when no Redis answers at `redisUrl`. Returns how many keys it deleted.
 */
export async function clearNamespace({
  redisUrl,
  namespace,
}: {
  redisUrl: string;
  namespace: string;
}): Promise<number> {
  if (!(await redisAnswers(redisUrl))) return 0;
  const redis = createRedisConnection({ url: redisUrl, lazyConnect: true });
  let deleted = 0;
  try {
    await redis.connect();
    for (const pattern of patterns(namespace)) {
      for await (const keys of scanKeys(redis, pattern, 500)) {
        if (keys.length > 0) deleted += await redis.unlink(...keys);
      }
    }
  } finally {
    redis.disconnect();
  }
  return deleted;
}
