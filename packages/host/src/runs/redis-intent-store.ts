import type { IntentBegin, IntentFinish, IntentRecord, IntentStart, IntentStore } from '@switchboard/agent';
import { type RedisConnection, RedisScript } from '@switchboard/redis';
import { DEFAULT_RETENTION_SECONDS } from '../tasks/retention.ts';

const BEGIN = new RedisScript(`
local current = redis.call('GET', KEYS[1])
if current then
  local ok, record = pcall(cjson.decode, current)
  if ok and record.status ~= 'failed' then return current end
end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return false
`);

const FINISH = new RedisScript(`
local current = redis.call('GET', KEYS[1])
if not current then return 0 end
local record = cjson.decode(current)
record.status = ARGV[1]
record.finishedAt = ARGV[2]
if ARGV[3] ~= '' then record.result = cjson.decode(ARGV[3]) end
redis.call('SET', KEYS[1], cjson.encode(record), 'KEEPTTL')
return 1
`);

/**
 * Intent records of non-idempotent tools in Redis, shared by every replica: `begin` is one atomic
 * script, so two replicas racing on the same action cannot both start it. Each record expires
 * `ttlSeconds` (default 7 days) after it began.
 */
export class RedisIntentStore implements IntentStore {
  readonly #redis: RedisConnection;
  readonly #prefix: string;
  readonly #ttlSeconds: number;

  constructor({
    redis,
    prefix,
    ttlSeconds = DEFAULT_RETENTION_SECONDS,
  }: { redis: RedisConnection; prefix: string; ttlSeconds?: number }) {
    this.#redis = redis;
    this.#prefix = prefix;
    this.#ttlSeconds = ttlSeconds;
  }

  #key(key: string): string {
    return `${this.#prefix}:intent:${key}`;
  }

  async begin({ key, tool, now }: IntentStart): Promise<IntentBegin> {
    const record: IntentRecord = { key, tool, status: 'in_progress', startedAt: now.toISOString() };
    const existing = (await BEGIN.run(
      this.#redis,
      [this.#key(key)],
      [JSON.stringify(record), this.#ttlSeconds],
    )) as string | null;
    return existing ? { started: false, existing: JSON.parse(existing) as IntentRecord } : { started: true };
  }

  async finish({ key, status, result, now }: IntentFinish): Promise<void> {
    const encoded = result === undefined ? '' : JSON.stringify(result);
    await FINISH.run(this.#redis, [this.#key(key)], [status, now.toISOString(), encoded]);
  }

  async get(key: string): Promise<IntentRecord | undefined> {
    const raw = await this.#redis.get(this.#key(key));
    return raw === null ? undefined : (JSON.parse(raw) as IntentRecord);
  }
}
