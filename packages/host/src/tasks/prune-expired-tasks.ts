import { type RedisConnection, RedisScript } from '@switchboard/redis';
import type { TaskStoreKeys } from './task-store-keys.ts';

// Atomic, so a task saved again while it is being pruned keeps its index entries. A task whose key
// still exists (clocks disagree) stays until a later call. Index key names are built from ARGV bases;
// with a {hash tag} prefix they share one Cluster slot with KEYS.
const PRUNE_SCRIPT = new RedisScript(`
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[5]))
local pruned = 0
for _, id in ipairs(ids) do
  if redis.call('EXISTS', ARGV[4] .. id) == 0 then
    redis.call('ZREM', KEYS[2], id)
    for state = 0, 8 do redis.call('ZREM', ARGV[2] .. state, id) end
    local ctx = redis.call('HGET', KEYS[3], id)
    if ctx then redis.call('ZREM', ARGV[3] .. ctx, id) end
    redis.call('HDEL', KEYS[3], id)
    redis.call('ZREM', KEYS[1], id)
    pruned = pruned + 1
  end
end
return pruned
`);

/** Options of {@link pruneExpiredTasks}. */
export interface PruneExpiredTasksOptions {
  redis: RedisConnection;
  keys: TaskStoreKeys;
  scope: string;
  /** Now, in ms since the epoch (default `Date.now()`). */
  now?: number;
  /** At most this many tasks per call, to keep the script short (default 500). */
  limit?: number;
}

/**
 * Removes the index entries of a scope's expired tasks (whose task key Redis has already dropped), so
 * `list()` counts and pages only live tasks. Returns how many were removed.
 */
export async function pruneExpiredTasks({
  redis,
  keys,
  scope,
  now = Date.now(),
  limit = 500,
}: PruneExpiredTasksOptions): Promise<number> {
  const pruned = await PRUNE_SCRIPT.run(
    redis,
    [keys.expiry(scope), keys.index(scope), keys.contextOf(scope)],
    [String(now), keys.stateIndexBase(scope), keys.contextIndexBase(scope), keys.task(''), String(limit)],
  );
  return typeof pruned === 'number' ? pruned : 0;
}
