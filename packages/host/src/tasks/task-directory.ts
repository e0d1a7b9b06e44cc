import type { Task } from '@a2a-js/sdk';
import { type Logger, stderrLogger } from '@switchboard/agent';
import type { RedisConnection } from '@switchboard/redis';
import { HostError } from '../errors.ts';
import { loadScopedTasks } from './stored-task.ts';
import { TaskStoreKeys } from './task-store-keys.ts';

/** A task with whose it is: the owner scope it is stored under (tenant and owner principal key). */
export interface OwnedTask {
  task: Task;
  tenant: string;
  /** The owner's principal key, e.g. `user:u-1024`. */
  owner: string;
  /**
   * When its state last changed (ms since the epoch), as the directory orders tasks: what `before`
   * of {@link RecentTasksOptions} compares. Set by `recent`, not by `find`.
   */
  changedAt?: number;
}

/** Options of {@link TaskDirectory.recent}. */
export interface RecentTasksOptions {
  /** At most this many (default 50, at most 500). */
  limit?: number;
  /** Only tasks whose state last changed before this time (ms): the page after one ending there. */
  before?: number;
}

/**
 * Every user's tasks of one agent, for operators (the console's requests list): trusted server code
 * only, since it reads across owner scopes. A port: {@link RedisTaskDirectory} reads what
 * `RedisTaskStore` indexes.
 */
export interface TaskDirectory {
  /** The most recently changed tasks, newest first. */
  recent(options?: RecentTasksOptions): Promise<OwnedTask[]>;
  /** One task by id, whoever owns it. */
  find(taskId: string): Promise<OwnedTask | undefined>;
}

/**
 * The tasks a `RedisTaskStore` with the same `prefix` keeps, across owners, newest first from its
 * store-wide index (`<prefix>:tasks-recent`); entries of expired tasks are dropped as they are met.
 *
 * @example
 * const directory = new RedisTaskDirectory({ redis, prefix: '{switchboard:supervisor}' });
 * const [latest] = await directory.recent({ limit: 1 });
 */
export class RedisTaskDirectory implements TaskDirectory {
  readonly #redis: RedisConnection;
  readonly #keys: TaskStoreKeys;
  readonly #logger: Pick<Logger, 'warn'>;

  constructor({
    redis,
    prefix,
    logger = stderrLogger(),
  }: {
    redis: RedisConnection;
    prefix: string;
    logger?: Pick<Logger, 'warn'>;
  }) {
    if (typeof prefix !== 'string' || prefix === '') {
      throw new HostError('INVALID_OPTIONS', {
        message:
          'RedisTaskDirectory needs the prefix of its RedisTaskStore, e.g. { prefix: "{switchboard:orders}" }.',
      });
    }
    this.#redis = redis;
    this.#keys = new TaskStoreKeys(prefix);
    this.#logger = logger;
  }

  async recent({ limit = 50, before }: RecentTasksOptions = {}): Promise<OwnedTask[]> {
    const count = Math.min(Math.max(1, Math.trunc(limit)), 500);
    const max = before === undefined ? '+inf' : `(${before}`;
    const scored = await this.#redis.zrevrangebyscore(
      this.#keys.recent(),
      max,
      '-inf',
      'WITHSCORES',
      'LIMIT',
      0,
      count,
    );
    const ids = scored.filter((_, index) => index % 2 === 0);
    const found = await this.#load(ids);
    const gone = ids.filter((_, index) => found[index] === undefined);
    if (gone.length > 0) await this.#redis.zrem(this.#keys.recent(), ...gone);
    return found.flatMap((entry, index) =>
      entry ? [{ ...entry, changedAt: Number(scored[index * 2 + 1]) }] : [],
    );
  }

  async find(taskId: string): Promise<OwnedTask | undefined> {
    const [found] = await this.#load([taskId]);
    return found;
  }

  async #load(ids: readonly string[]): Promise<(OwnedTask | undefined)[]> {
    const found = await loadScopedTasks({ redis: this.#redis, keys: this.#keys, ids, logger: this.#logger });
    return found.map((entry) => entry && { task: entry.task, ...this.#keys.parseScope(entry.scope) });
  }
}
