import { BoardApproval, boardEntry } from '@switchboard/protocol';
import { type RedisConnection, RedisScript } from '@switchboard/redis';
import { HostError } from '../errors.ts';
import { DEFAULT_RETENTION_SECONDS } from '../tasks/retention.ts';
import {
  type ApprovalBoard,
  type ApprovalPage,
  type BoardDecision,
  DEFAULT_PAGE_SIZE,
  type DecideResult,
  decodeCursor,
  encodeCursor,
  isAfter,
  matchesStatus,
  type PageOptions,
  type TaskApprovals,
  type TaskWithdrawal,
} from './approval-board.ts';

/** Options of {@link RedisApprovalBoard}. */
export interface RedisApprovalBoardOptions {
  /** An ioredis connection; the caller owns it. */
  redis: RedisConnection;
  /** Key prefix, e.g. `{switchboard:supervisor}` (a hash tag keeps the board on one Cluster slot). */
  prefix: string;
  /** How long an entry is kept after its last change (default 7 days), and the index with it. */
  ttlSeconds?: number;
}

// KEYS: the task's set, the index, then each entry's key in the order of ARGV[3]. Entries withdrawn
// since the last sync are found in the set, so their keys are built from the prefix (ARGV[1]); with a
// {hash tag} prefix they share the declared keys' Cluster slot.
const SYNC = new RedisScript(`
local taskKey, index = KEYS[1], KEYS[2]
local prefix, ttl = ARGV[1], tonumber(ARGV[2])
local entries = cjson.decode(ARGV[3])
local asked = {}
for _, entry in ipairs(entries) do asked[entry.id] = true end
for _, id in ipairs(redis.call('SMEMBERS', taskKey)) do
  local key = prefix .. ':approval:' .. id
  local raw = redis.call('GET', key)
  if raw and not asked[id] then
    local entry = cjson.decode(raw)
    if entry.status == 'pending' then
      entry.status = 'withdrawn'
      redis.call('SET', key, cjson.encode(entry), 'EX', ttl)
    end
  end
end
for i, entry in ipairs(entries) do
  local key = KEYS[2 + i]
  local raw = redis.call('GET', key)
  local old = raw and cjson.decode(raw)
  if not old or old.status == 'withdrawn' or old.argumentsHash ~= entry.argumentsHash then
    redis.call('SET', key, ARGV[3 + i], 'EX', ttl)
    redis.call('ZADD', index, ARGV[3 + #entries + i], entry.id)
  end
  redis.call('SADD', taskKey, entry.id)
end
redis.call('EXPIRE', taskKey, ttl)
-- The index lives as long as the newest entry it lists may: no approval is kept forever.
if redis.call('EXISTS', index) == 1 then redis.call('EXPIRE', index, ttl) end
return 1
`);

const DECIDE = new RedisScript(`
local raw = redis.call('GET', KEYS[1])
if not raw then return {'not_found'} end
local entry = cjson.decode(raw)
if entry.status == 'withdrawn' then return {'withdrawn', raw} end
if entry.status ~= 'pending' then return {'already_decided', raw} end
if ARGV[1] == 'approved' and ARGV[5] ~= '' and entry.requestedBy == ARGV[5] then
  return {'own_request', raw}
end
entry.status = ARGV[1]
entry.decidedBy = ARGV[2]
entry.decidedAt = ARGV[3]
if ARGV[4] ~= '' then entry.reason = ARGV[4] end
local updated = cjson.encode(entry)
redis.call('SET', KEYS[1], updated, 'KEEPTTL')
return {'ok', updated}
`);

// KEYS: the task's set. ARGV: the prefix, who canceled, when. Pending entries become withdrawn.
const WITHDRAW_TASK = new RedisScript(`
local withdrawn = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local key = ARGV[1] .. ':approval:' .. id
  local raw = redis.call('GET', key)
  if raw then
    local entry = cjson.decode(raw)
    if entry.status == 'pending' then
      entry.status = 'withdrawn'
      if ARGV[2] ~= '' then entry.withdrawnBy = ARGV[2] end
      entry.withdrawnAt = ARGV[3]
      redis.call('SET', key, cjson.encode(entry), 'KEEPTTL')
      table.insert(withdrawn, id)
    end
  end
end
return withdrawn
`);

// KEYS: the requester's set. ARGV: the prefix. Counts its pending entries, dropping the others.
const COUNT_PENDING = new RedisScript(`
local count = 0
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local raw = redis.call('GET', ARGV[1] .. ':approval:' .. id)
  if raw and cjson.decode(raw).status == 'pending' then count = count + 1
  else redis.call('SREM', KEYS[1], id) end
end
return count
`);

const REOPEN = new RedisScript(`
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local entry = cjson.decode(raw)
entry.status = 'pending'
entry.decidedBy = nil
entry.decidedAt = nil
entry.reason = nil
entry.withdrawnBy = nil
entry.withdrawnAt = nil
redis.call('SET', KEYS[1], cjson.encode(entry), 'KEEPTTL')
return 1
`);

/**
 * An entry as it is stored: its arguments as JSON text, so the scripts' cjson, which re-encodes the
 * entries it changes, never rewrites them (it turns `[]` into `{}` and rounds long numbers).
 */
function storedForm({ arguments: args, ...entry }: BoardApproval): string {
  return JSON.stringify({ ...entry, argumentsJson: JSON.stringify(args) });
}

/**
 * The approval board on Redis, shared by every replica of a service: one JSON entry per approval
 * (`<prefix>:approval:<id>`), an index by request time and a set per task. Syncing and deciding are
 * Lua scripts, so a decision is taken once even when two operators click at the same moment.
 *
 * @example
 * const approvals = new RedisApprovalBoard({ redis, prefix: '{switchboard:supervisor}' });
 */
export class RedisApprovalBoard implements ApprovalBoard {
  readonly #redis: RedisConnection;
  readonly #prefix: string;
  readonly #ttl: number;

  constructor({ redis, prefix, ttlSeconds = DEFAULT_RETENTION_SECONDS }: RedisApprovalBoardOptions) {
    if (!redis || !prefix) {
      throw new HostError('INVALID_OPTIONS', {
        message:
          'RedisApprovalBoard needs a redis connection and a key prefix, e.g. "{switchboard:supervisor}".',
      });
    }
    if (!Number.isInteger(ttlSeconds) || ttlSeconds <= 0) {
      throw new HostError('INVALID_OPTIONS', {
        message: `ttlSeconds must be a positive whole number of seconds, got ${ttlSeconds}.`,
      });
    }
    this.#redis = redis;
    this.#prefix = prefix;
    this.#ttl = ttlSeconds;
  }

  async sync({ pending, ...task }: TaskApprovals): Promise<void> {
    const entries = pending.map((request) => boardEntry(request, task));
    const scores = entries.map((entry) => String(Date.parse(entry.requestedAt) || Date.now()));
    // The entries travel twice: decoded by the script to read ids and hashes, and verbatim to be
    // stored as sent.
    await SYNC.run(
      this.#redis,
      [this.#taskKey(task.taskId), this.#indexKey(), ...entries.map(({ id }) => this.#key(id))],
      [
        this.#prefix,
        String(this.#ttl),
        JSON.stringify(entries.map(({ id, argumentsHash }) => ({ id, argumentsHash }))),
        ...entries.map(storedForm),
        ...scores,
      ],
    );
    if (task.requestedBy && entries.length > 0) {
      const requester = this.#requesterKey(task.requestedBy);
      await this.#redis
        .multi()
        .sadd(requester, ...entries.map(({ id }) => id))
        .expire(requester, this.#ttl)
        .exec();
    }
  }

  async pendingCount(requestedBy: string): Promise<number> {
    return Number(await COUNT_PENDING.run(this.#redis, [this.#requesterKey(requestedBy)], [this.#prefix]));
  }

  async list({ status = 'pending' }: { status?: 'pending' | 'decided' | 'all' } = {}) {
    const index = this.#indexKey();
    const ids = await this.#redis.zrange(index, '0', '-1');
    if (ids.length === 0) return [];
    const raws = await this.#redis.mget(ids.map((id) => this.#key(id)));
    const gone = ids.filter((_, i) => raws[i] === null);
    if (gone.length > 0) await this.#redis.zrem(index, ...gone);
    return raws
      .flatMap((raw) => (raw === null ? [] : [this.#parse(raw)]))
      .filter((entry): entry is BoardApproval => entry !== undefined)
      .filter((entry) => matchesStatus(entry.status, status));
  }

  async page({
    status = 'pending',
    limit = DEFAULT_PAGE_SIZE,
    cursor,
  }: PageOptions = {}): Promise<ApprovalPage> {
    const index = this.#indexKey();
    const from = cursor ? decodeCursor(cursor) : undefined;
    const batch = Math.max(limit + 1, 100);
    const found: { entry: BoardApproval; at: number }[] = [];
    // Read the index from the cursor's time on, a batch at a time, until one more than a page is
    // found (so the page knows whether another follows) or the index ends.
    for (let offset = 0; found.length <= limit; offset += batch) {
      const flat = await this.#redis.zrangebyscore(
        index,
        from ? String(from.at) : '-inf',
        '+inf',
        'WITHSCORES',
        'LIMIT',
        offset,
        batch,
      );
      const scored: { id: string; at: number }[] = [];
      for (let i = 0; i + 1 < flat.length; i += 2)
        scored.push({ id: flat[i] ?? '', at: Number(flat[i + 1]) });
      const after = from ? scored.filter((item) => isAfter(item, from)) : scored;
      if (after.length > 0) {
        const raws = await this.#redis.mget(after.map(({ id }) => this.#key(id)));
        after.forEach(({ at }, i) => {
          const raw = raws[i];
          const entry = raw ? this.#parse(raw) : undefined;
          if (entry && matchesStatus(entry.status, status)) found.push({ entry, at });
        });
      }
      if (scored.length < batch) break;
    }
    const page = found.slice(0, limit);
    const last = page.at(-1);
    return {
      approvals: page.map(({ entry }) => entry),
      ...(found.length > limit && last
        ? { nextCursor: encodeCursor({ at: last.at, id: last.entry.id }) }
        : {}),
    };
  }

  async get(id: string) {
    const raw = await this.#redis.get(this.#key(id));
    return raw === null ? undefined : this.#parse(raw);
  }

  async decide({
    id,
    decision,
    decidedBy,
    deciderKey,
    reason,
    now = new Date(),
  }: BoardDecision): Promise<DecideResult> {
    const [outcome, raw] = (await DECIDE.run(
      this.#redis,
      [this.#key(id)],
      [decision, decidedBy, now.toISOString(), reason ?? '', deciderKey ?? ''],
    )) as [string, string | undefined];
    const approval = raw === undefined ? undefined : this.#parse(raw);
    if (outcome === 'ok' && approval) return { ok: true, approval };
    if ((outcome === 'already_decided' || outcome === 'own_request' || outcome === 'withdrawn') && approval)
      return { ok: false, reason: outcome, approval };
    return { ok: false, reason: 'not_found' };
  }

  async withdrawTask({ taskId, withdrawnBy, now = new Date() }: TaskWithdrawal): Promise<string[]> {
    return (await WITHDRAW_TASK.run(
      this.#redis,
      [this.#taskKey(taskId)],
      [this.#prefix, withdrawnBy ?? '', now.toISOString()],
    )) as string[];
  }

  async reopen(id: string): Promise<void> {
    await REOPEN.run(this.#redis, [this.#key(id)]);
  }

  #requesterKey(requestedBy: string): string {
    return `${this.#prefix}:approvals:by:${requestedBy}`;
  }

  #taskKey(taskId: string): string {
    return `${this.#prefix}:approvals:task:${taskId}`;
  }

  #indexKey(): string {
    return `${this.#prefix}:approvals`;
  }

  #key(id: string): string {
    return `${this.#prefix}:approval:${id}`;
  }

  #parse(raw: string): BoardApproval | undefined {
    try {
      const { argumentsJson, ...entry } = JSON.parse(raw) as { argumentsJson?: unknown };
      const args = typeof argumentsJson === 'string' ? JSON.parse(argumentsJson) : undefined;
      const parsed = BoardApproval.safeParse({ ...entry, arguments: args });
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }
}
