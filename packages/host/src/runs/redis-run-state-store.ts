import { type Logger, stderrLogger } from '@switchboard/agent';
import type { RedisConnection } from '@switchboard/redis';
import { HostError } from '../errors.ts';
import { DEFAULT_RETENTION_SECONDS } from '../tasks/retention.ts';
import {
  checkedMaxTurns,
  DEFAULT_HISTORY_TURNS,
  keepLastTurns,
  RunState,
  type RunStateStore,
} from './run-state-store.ts';

/** Options of {@link RedisRunStateStore}. */
export interface RedisRunStateStoreOptions {
  /** An ioredis connection; the caller owns it (and closes it). */
  redis: RedisConnection;
  /** Key prefix of this agent, e.g. `{switchboard:orders}`; state lives at `<prefix>:run:<conversation>`. */
  prefix: string;
  /** How long a conversation's state is kept after its last save; default 7 days. */
  ttlSeconds?: number;
  /**
   * The turns of a conversation kept (default 50): older ones are dropped on save, by whole turns,
   * so a tool call is never parted from its results.
   */
  maxTurns?: number;
  /** Where corrupt entries are reported; default JSON lines on stderr. */
  logger?: Pick<Logger, 'warn'>;
}

/**
 * The {@link RunStateStore} on Redis, shared by all replicas of an agent: one JSON value per A2A
 * `conversation`, validated with the {@link RunState} schema on load, its TTL refreshed on every save
 * and its history cut to the last `maxTurns` turns.
 * A corrupt entry is logged and read as absent, so the conversation starts afresh instead of failing.
 *
 * @example
 * new SwitchboardAgentExecutor({ agent, model, runState: new RedisRunStateStore({ redis, prefix }) });
 */
export class RedisRunStateStore implements RunStateStore {
  readonly #redis: RedisConnection;
  readonly #prefix: string;
  readonly #ttlSeconds: number;
  readonly #maxTurns: number;
  readonly #logger: Pick<Logger, 'warn'>;

  constructor({
    redis,
    prefix,
    ttlSeconds = DEFAULT_RETENTION_SECONDS,
    maxTurns = DEFAULT_HISTORY_TURNS,
    logger = stderrLogger(),
  }: RedisRunStateStoreOptions) {
    if (typeof prefix !== 'string' || prefix === '') {
      throw new HostError('INVALID_OPTIONS', {
        message: 'RedisRunStateStore needs a non-empty prefix, e.g. { prefix: "{switchboard:orders}" }.',
      });
    }
    if (!Number.isInteger(ttlSeconds) || ttlSeconds <= 0) {
      throw new HostError('INVALID_OPTIONS', {
        message: `RedisRunStateStore ttlSeconds must be a positive whole number, got ${ttlSeconds}.`,
      });
    }
    this.#redis = redis;
    this.#prefix = prefix;
    this.#ttlSeconds = ttlSeconds;
    this.#maxTurns = checkedMaxTurns('RedisRunStateStore', maxTurns);
    this.#logger = logger;
  }

  #key(conversation: string): string {
    return `${this.#prefix}:run:${conversation}`;
  }

  async load(conversation: string): Promise<RunState | undefined> {
    const stored = await this.#redis.get(this.#key(conversation));
    if (stored === null) return undefined;
    let raw: unknown;
    try {
      raw = JSON.parse(stored);
    } catch (err) {
      this.#logger.warn({ conversation, key: this.#key(conversation), err }, 'corrupt run state ignored');
      return undefined;
    }
    const parsed = RunState.safeParse(raw);
    if (parsed.success) return parsed.data;
    this.#logger.warn(
      { conversation, key: this.#key(conversation), issues: parsed.error.issues },
      'corrupt run state ignored',
    );
    return undefined;
  }

  async save(conversation: string, state: RunState): Promise<void> {
    try {
      await this.#redis.set(
        this.#key(conversation),
        JSON.stringify(keepLastTurns(state, this.#maxTurns)),
        'EX',
        this.#ttlSeconds,
      );
    } catch (cause) {
      throw new HostError('REDIS_UNAVAILABLE', {
        message: `Run state of ${conversation} could not be saved.`,
        cause,
      });
    }
  }
}
