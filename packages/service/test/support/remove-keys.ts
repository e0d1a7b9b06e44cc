import { type RedisConnection, scanKeys } from '@switchboard/redis';

/** Deletes every key naming one of a test's `namespaces` (on every master of a cluster). */
export async function removeNamespaces(redis: RedisConnection, namespaces: readonly string[]): Promise<void> {
  for (const namespace of namespaces) {
    for await (const keys of scanKeys(redis, `*${namespace}*`))
      await Promise.all(keys.map((key) => redis.unlink(key)));
  }
}
