import type { RedisConnection } from '@switchboard/redis';
import { parseScore, timestampScore } from './task-store-keys.ts';

/** What {@link readTaskWindow} reads: one page of task ids, newest status first. */
export interface TaskWindowRequest {
  redis: RedisConnection;
  /** One index key, or two (context + state) to intersect. */
  keys: readonly [string] | readonly [string, string];
  /** The last task of the previous page, from the page token. */
  cursor?: { timestamp: string; id: string } | undefined;
  /** Only tasks whose status timestamp is strictly later (ms). */
  afterMs?: number | undefined;
  pageSize: number;
}

/** A page of task ids, the number of tasks matching the filters, and whether more follow. */
export interface TaskWindow {
  ids: string[];
  /** The score the last id is indexed under. */
  lastScore?: number | undefined;
  total: number;
  hasMore: boolean;
}

const EMPTY: TaskWindow = { ids: [], total: 0, hasMore: false };

/**
 * Reads one page from sorted-set indexes scored by status timestamp, in the SDK's order (timestamp
 * descending, then id descending). A cursor that no longer matches (the task moved, expired or now
 * fails the filters) yields an empty page, as in the SDK's InMemoryTaskStore.
 */
export async function readTaskWindow(request: TaskWindowRequest): Promise<TaskWindow> {
  return request.keys.length === 1 ? readRanked(request, request.keys[0]) : readIntersection(request);
}

/** One index: counts and pages by rank, without reading the whole set. */
async function readRanked(
  { redis, cursor, afterMs, pageSize }: TaskWindowRequest,
  key: string,
): Promise<TaskWindow> {
  // Tasks later than `afterMs` are a prefix of the descending order, `total` long.
  const total = await redis.zcount(key, afterMs === undefined ? '-inf' : `(${afterMs}`, '+inf');
  let start = 0;
  if (cursor) {
    const [rank, score] = await Promise.all([redis.zrevrank(key, cursor.id), redis.zscore(key, cursor.id)]);
    if (rank === null || rank >= total || parseScore(score) !== timestampScore(cursor.timestamp)) {
      return { ...EMPTY, total };
    }
    start = rank + 1;
  }
  const end = Math.min(start + pageSize, total);
  const withScores = (end > start ? await redis.zrevrange(key, start, end - 1, 'WITHSCORES') : []).flat();
  const ids = withScores.filter((_, i) => i % 2 === 0);
  const lastScore = parseScore(withScores.at(-1));
  return { ids, lastScore, total, hasMore: start + ids.length < total };
}

/** Context and state together: intersects in Redis, orders and pages here (a context is small). */
async function readIntersection({
  redis,
  keys,
  cursor,
  afterMs,
  pageSize,
}: TaskWindowRequest): Promise<TaskWindow> {
  const [first, second] = keys;
  const members: string[] = await redis.zinter(2, [first, second ?? first]);
  if (members.length === 0) return EMPTY;
  const scores = await redis.zmscore(first, ...members);
  // ZINTER returns ascending (score, member); reversed, that is the SDK's descending order.
  const entries = members
    .map((id, i) => ({ id, score: parseScore(scores[i]) ?? Number.NEGATIVE_INFINITY }))
    .filter((entry) => afterMs === undefined || entry.score > afterMs)
    .reverse();
  let start = 0;
  if (cursor) {
    const cursorScore = timestampScore(cursor.timestamp);
    const index = entries.findIndex((entry) => entry.id === cursor.id && entry.score === cursorScore);
    if (index === -1) return { ...EMPTY, total: entries.length };
    start = index + 1;
  }
  const page = entries.slice(start, start + pageSize);
  return {
    ids: page.map((entry) => entry.id),
    lastScore: page.at(-1)?.score,
    total: entries.length,
    hasMore: start + page.length < entries.length,
  };
}
