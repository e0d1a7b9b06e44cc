import { AgentCard } from '@a2a-js/sdk';
import { type Logger, stderrLogger } from '@switchboard/agent';
import { type RedisConnection, RedisScript } from '@switchboard/redis';
import { DelegateError } from '../errors.ts';
import {
  INSTANCE_FIELDS,
  indexMember,
  parseIndexMember,
  type RegistryEntry,
  readStoredInstance,
  StoredAgentCard,
} from './registry-entry.ts';

/** Options of {@link AgentRegistry}. */
export interface AgentRegistryOptions {
  /** An ioredis connection; the caller owns it (and closes it). */
  redis: RedisConnection;
  /**
   * Key namespace; default `switchboard`. The registry's keys share the hash tag
   * `{<namespace>:registry}`, so on a Redis Cluster they sit in one slot.
   */
  namespace?: string;
  /** How long an instance stays listed after its last heartbeat; default 15 s, heartbeat every ttl/3. */
  ttlSeconds?: number;
  /** Where failed heartbeats and invalid entries are reported; default JSON lines on stderr. */
  logger?: Pick<Logger, 'warn'>;
}

/** What {@link AgentRegistry.register} publishes. */
export interface RegisterOptions {
  card: AgentCard;
  /** Unique per running process, e.g. the pod name. */
  instanceId: string;
  metadata?: Record<string, string>;
}

/** A published instance; keeps its heartbeat going until {@link Registration.stop}. */
export interface Registration {
  readonly name: string;
  readonly instanceId: string;
  /** Writes a heartbeat now (the timer does this every ttl/3). */
  heartbeat(): Promise<void>;
  /** Stops the heartbeat and removes the instance at once (graceful shutdown). Idempotent. */
  stop(): Promise<void>;
}

// Drops an index member only if its entry is gone, so a concurrent re-register is not lost.
const DROP_IF_GONE = new RedisScript(
  `if redis.call('EXISTS', KEYS[2]) == 0 then return redis.call('ZREM', KEYS[1], ARGV[1]) end return 0`,
);

/**
 * Agents publish their cards here, and discovery lists the live ones. Each instance is a hash at
 * `{<namespace>:registry}:agent:<name>:<instanceId>` (fields `card` = `AgentCard.toJSON` JSON,
 * `metadata`, `lastSeen`) that expires `ttlSeconds` after its last heartbeat; a sorted set
 * `{<namespace>:registry}:instances` (member `["<name>","<instanceId>"]`, score = last heartbeat, ms)
 * lets `list()` find them without SCAN; it expires `ttlSeconds` after the last heartbeat of any
 * instance. An instance whose entry has expired is not listed, and its index member is dropped on
 * the next `list()`.
 *
 * @example
 * const registration = await new AgentRegistry({ redis }).register({ card, instanceId: hostname() });
 * process.on('SIGTERM', () => registration.stop());
 */
export class AgentRegistry {
  readonly #redis: RedisConnection;
  readonly #namespace: string;
  readonly #ttlMs: number;
  readonly #logger: Pick<Logger, 'warn'>;

  constructor({
    redis,
    namespace = 'switchboard',
    ttlSeconds = 15,
    logger = stderrLogger(),
  }: AgentRegistryOptions) {
    if (typeof namespace !== 'string' || namespace === '') {
      throw new DelegateError('INVALID_OPTIONS', {
        message: 'AgentRegistry namespace must be a non-empty string.',
      });
    }
    if (!Number.isFinite(ttlSeconds) || ttlSeconds <= 0) {
      throw new DelegateError('INVALID_OPTIONS', {
        message: `AgentRegistry ttlSeconds must be a positive number of seconds, got ${ttlSeconds}.`,
      });
    }
    this.#redis = redis;
    this.#namespace = namespace;
    this.#ttlMs = Math.max(1, Math.round(ttlSeconds * 1000));
    this.#logger = logger;
  }

  #instanceKey(name: string, instanceId: string): string {
    return `{${this.#namespace}:registry}:agent:${name}:${instanceId}`;
  }

  #indexKey(): string {
    return `{${this.#namespace}:registry}:instances`;
  }

  /** Publishes the card now and keeps it alive with a heartbeat (an unref'd timer) until `stop()`. */
  async register({ card, instanceId, metadata = {} }: RegisterOptions): Promise<Registration> {
    const cardJson = AgentCard.toJSON(card);
    const checked = StoredAgentCard.safeParse(cardJson);
    if (!checked.success || !instanceId) {
      throw new DelegateError('INVALID_OPTIONS', {
        message: `register() needs a non-empty instanceId and a card with a name and at least one supportedInterfaces entry (card "${card.name}", instanceId "${instanceId}").`,
      });
    }
    const { name } = card;
    const key = this.#instanceKey(name, instanceId);
    const member = indexMember(name, instanceId);
    const fields = { card: JSON.stringify(cardJson), metadata: JSON.stringify(metadata) };
    const write = async () => {
      const now = Date.now();
      const results = await this.#redis
        .multi()
        .hset(key, { ...fields, lastSeen: String(now) })
        .pexpire(key, this.#ttlMs)
        .zadd(this.#indexKey(), now, member)
        // Kept alive by every live instance's heartbeat: once none is left, nor is the index.
        .pexpire(this.#indexKey(), this.#ttlMs)
        .exec();
      const failed = results?.find(([err]) => err !== null)?.[0];
      if (!results || failed)
        throw new DelegateError('REDIS_UNAVAILABLE', {
          message: `Heartbeat of ${key} failed.`,
          cause: failed,
        });
    };
    await write();
    let stopped = false;
    let inFlight: Promise<void> | undefined;
    const heartbeat = async () => {
      if (stopped) return;
      inFlight ??= write().finally(() => {
        inFlight = undefined;
      });
      await inFlight;
    };
    const timer = setInterval(() => {
      heartbeat().catch((err: unknown) =>
        this.#logger.warn({ err, name, instanceId }, 'registry heartbeat failed'),
      );
    }, this.#ttlMs / 3);
    timer.unref();
    return {
      name,
      instanceId,
      heartbeat,
      stop: async () => {
        if (stopped) return;
        stopped = true;
        clearInterval(timer);
        await inFlight?.catch(() => undefined);
        await this.#redis.multi().del(key).zrem(this.#indexKey(), member).exec();
      },
    };
  }

  /** Live agents by name (sorted), each with its instances. Invalid entries are logged and skipped. */
  async list(): Promise<RegistryEntry[]> {
    const members = await this.#redis.zrange(this.#indexKey(), 0, '-1');
    const instances = members.flatMap((member) => {
      const parsed = parseIndexMember(member);
      if (!parsed) {
        this.#logger.warn({ member, key: this.#indexKey() }, 'invalid registry index member skipped');
        return [];
      }
      return [{ member, ...parsed, key: this.#instanceKey(parsed.name, parsed.instanceId) }];
    });
    const pipeline = this.#redis.pipeline();
    for (const { key } of instances) pipeline.hmget(key, ...INSTANCE_FIELDS);
    const replies = instances.length === 0 ? [] : ((await pipeline.exec()) ?? []);
    const byName = new Map<string, RegistryEntry & { seen: number }>();
    for (const [i, { member, name, instanceId, key }] of instances.entries()) {
      const [err, fields] = replies[i] ?? [null, undefined];
      if (!err && Array.isArray(fields) && fields.every((field) => field === null)) {
        await DROP_IF_GONE.run(this.#redis, [this.#indexKey(), key], [member]);
        continue;
      }
      const read = err
        ? { ok: false as const, reason: err.message }
        : readStoredInstance({ name, instanceId, fields: Array.isArray(fields) ? fields : [] });
      if (!read.ok) {
        this.#logger.warn({ key, reason: read.reason }, 'invalid registry entry skipped');
        continue;
      }
      const seen = read.instance.lastSeen.getTime();
      const entry = byName.get(name) ?? { name, card: read.card, instances: [], seen };
      if (seen > entry.seen) Object.assign(entry, { card: read.card, seen });
      entry.instances.push(read.instance);
      byName.set(name, entry);
    }
    return [...byName.values()]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map(({ name, card, instances: live }) => ({
        name,
        card,
        instances: live.sort((a, b) =>
          a.instanceId < b.instanceId ? -1 : a.instanceId > b.instanceId ? 1 : 0,
        ),
      }));
  }

  /** One live agent, or `undefined` when no instance of it is alive. */
  async get(name: string): Promise<RegistryEntry | undefined> {
    return (await this.list()).find((entry) => entry.name === name);
  }
}
