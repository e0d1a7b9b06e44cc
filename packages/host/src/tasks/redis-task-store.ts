import { type ListTasksRequest, type ListTasksResponse, type Task, TaskState } from '@a2a-js/sdk';
import {
  type OwnerResolver,
  resolveUserScope,
  type ServerCallContext,
  type TaskStore,
} from '@a2a-js/sdk/server';
import { type Logger, stderrLogger } from '@switchboard/agent';
import { TERMINAL_TASK_STATES } from '@switchboard/protocol';
import type { RedisConnection } from '@switchboard/redis';
import { HostError } from '../errors.ts';
import { runGuardedSave, type SaveCommand } from './guarded-save.ts';
import { pruneExpiredTasks } from './prune-expired-tasks.ts';
import { DEFAULT_RETENTION_SECONDS } from './retention.ts';
import { loadStoredTasks, storedTaskJson, taskOfOwnJson } from './stored-task.ts';
import { readTaskWindow } from './task-list-window.ts';
import {
  decodePageToken,
  encodePageToken,
  INDEXED_TASK_STATES,
  TaskStoreKeys,
  taskCanceledChannel,
  timestampScore,
} from './task-store-keys.ts';
import { withoutTransientHistory } from './transient-history.ts';
import { artifactsSignature, IndexExpiries, RecentIds, WrittenTasks } from './written-tasks.ts';

/** How long tasks are kept after their last save. */
export interface TaskRetention {
  /** For COMPLETED, FAILED, CANCELED and REJECTED tasks; default 7 days. */
  terminalTtlSeconds?: number;
  /** For every other state; default 7 days. */
  activeTtlSeconds?: number;
}

/** Options of {@link RedisTaskStore}. */
export interface RedisTaskStoreOptions {
  /** An ioredis connection; the caller owns it (and closes it). */
  redis: RedisConnection;
  /** Key prefix of this agent's tasks, e.g. `{switchboard:orders}` (a hash tag, for Redis Cluster). */
  prefix: string;
  retention?: TaskRetention;
  /** Who owns a task, from the call context; default the SDK's `resolveUserScope` (the user name). */
  ownerResolver?: OwnerResolver;
  /** Where corrupt entries are reported; default JSON lines on stderr. */
  logger?: Pick<Logger, 'warn'>;
  /**
   * How long a save that only adds progress may wait before it is written (default 1000 ms; 0
   * writes every save at once). Such a save keeps the task working with the same artifacts and only
   * adds to its status and history; the next save that changes more (a state, an artifact) writes
   * it at once, together with what waited. Other replicas read a task's state and artifacts as soon
   * as they are saved, and its progress lines at most this late (`SubscribeToTask` streams them live).
   */
  progressDelayMs?: number;
}

/** A score as the status timestamp it was made from ('' for a task without one). */
const isoTimestamp = (score: number | undefined) =>
  score !== undefined && Number.isFinite(score) ? new Date(score).toISOString() : '';

/** A save that waits: the task's JSON, its scope and when it is written. */
interface HeldSave {
  json: string;
  task: Task;
  context: ServerCallContext;
  timer: NodeJS.Timeout;
}

const DEFAULT_PAGE_SIZE = 50;
/** States in which a task runs in the process that writes it (no other replica moves it meanwhile). */
const RUNNING_STATES: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_SUBMITTED,
  TaskState.TASK_STATE_WORKING,
]);
/** How often the owner key and expiry entry of a task saved again and again are rewritten, at most. */
const HORIZON_REFRESH_MS = 60_000;
const scoreArg = (score: number) => (Number.isFinite(score) ? score : '-inf');

function positiveSeconds(name: string, value: number): number {
  if (!Number.isInteger(value) || value <= 0) {
    throw new HostError('INVALID_OPTIONS', {
      message: `retention.${name} must be a positive whole number of seconds, got ${value}.`,
    });
  }
  return value;
}

/**
 * The SDK's `TaskStore` on Redis, shared by all replicas of an agent: tasks (with history and
 * artifacts) as `Task.toJSON` JSON, in the compact form of `compact-form.ts`, under `<prefix>:task:<id>`,
 * indexed per owner scope (tenant +
 * owner, as the SDK's InMemoryTaskStore scopes them) in sorted sets by status timestamp, one per
 * scope, per state and per context, so `list()` pages without SCAN. Terminal tasks expire after
 * `retention.terminalTtlSeconds`, others after `retention.activeTtlSeconds`; index entries of expired
 * tasks are pruned on `list()`. A save into `TASK_STATE_CANCELED` publishes the task id on
 * {@link taskCanceledChannel} and marks the task canceled (`<prefix>:task-canceled:<id>`), after
 * which saves of any other state are refused: a cancel from another replica wins over the replica
 * still running the task, which serves its loads from what it last saved.
 *
 * @example
 * const taskStore = new RedisTaskStore({ redis, prefix: '{switchboard:orders}' });
 * new DefaultRequestHandler(card, taskStore, executor);
 */
export class RedisTaskStore implements TaskStore {
  readonly #redis: RedisConnection;
  readonly #keys: TaskStoreKeys;
  readonly #terminalTtlMs: number;
  readonly #activeTtlMs: number;
  readonly #ownerResolver: OwnerResolver;
  readonly #logger: Pick<Logger, 'warn'>;
  readonly #written = new WrittenTasks();
  /** Tasks a load here found absent (bounded): their first save needs no ZREM from other states. */
  readonly #absent = new RecentIds();
  readonly #indexExpiries: IndexExpiries;
  readonly #held = new Map<string, HeldSave>();
  readonly #progressDelayMs: number;

  constructor({
    redis,
    prefix,
    retention = {},
    ownerResolver = resolveUserScope,
    logger = stderrLogger(),
    progressDelayMs = 1000,
  }: RedisTaskStoreOptions) {
    if (typeof prefix !== 'string' || prefix === '') {
      throw new HostError('INVALID_OPTIONS', {
        message: 'RedisTaskStore needs a non-empty prefix, e.g. { prefix: "{switchboard:orders}" }.',
      });
    }
    if (!Number.isInteger(progressDelayMs) || progressDelayMs < 0) {
      throw new HostError('INVALID_OPTIONS', {
        message: `progressDelayMs must be a whole number of milliseconds, 0 or more; got ${progressDelayMs}.`,
      });
    }
    this.#progressDelayMs = progressDelayMs;
    const { terminalTtlSeconds = DEFAULT_RETENTION_SECONDS, activeTtlSeconds = DEFAULT_RETENTION_SECONDS } =
      retention;
    this.#terminalTtlMs = positiveSeconds('terminalTtlSeconds', terminalTtlSeconds) * 1000;
    this.#activeTtlMs = positiveSeconds('activeTtlSeconds', activeTtlSeconds) * 1000;
    this.#redis = redis;
    this.#keys = new TaskStoreKeys(prefix);
    this.#ownerResolver = ownerResolver;
    this.#logger = logger;
    this.#indexExpiries = new IndexExpiries(
      Math.min(HORIZON_REFRESH_MS, Math.max(this.#terminalTtlMs, this.#activeTtlMs) / 2),
    );
  }

  #scope(context: ServerCallContext): string {
    return this.#keys.scope(context.tenant ?? '', this.#ownerResolver(context));
  }

  /**
   * Saves a task. A save that only adds progress to a working task waits up to `progressDelayMs`
   * (see the option); any other is written at once, with what waited, in one script call with its
   * index entries (a cancellation is published in it too). Once a task was saved canceled (here or
   * on another replica), a save of any other state writes nothing. The first write of a task (in this process)
   * writes every index entry; the next ones the task, its scores, and its state index when it moved.
   */
  async save(task: Task, context: ServerCallContext): Promise<void> {
    if (!task.id) throw new HostError('INVALID_OPTIONS', { message: 'A task needs an id to be saved.' });
    const scope = this.#scope(context);
    const json = storedTaskJson(withoutTransientHistory(task));
    const written = this.#written.get(task.id);
    const progressOnly =
      this.#progressDelayMs > 0 &&
      task.status?.state === TaskState.TASK_STATE_WORKING &&
      written?.state === TaskState.TASK_STATE_WORKING &&
      written.scope === scope &&
      written.contextId === task.contextId &&
      written.artifacts === artifactsSignature(task);
    if (progressOnly) {
      this.#hold(task, json, context);
      return;
    }
    this.#release(task.id);
    await this.#write(task, json, context);
  }

  /** Keeps a progress-only save back, to be written when the delay is over (or by the next save). */
  #hold(task: Task, json: string, context: ServerCallContext): void {
    const held = this.#held.get(task.id);
    if (held) {
      held.json = json;
      held.task = task;
      held.context = context;
      return;
    }
    const timer = setTimeout(() => {
      const due = this.#held.get(task.id);
      if (!due) return;
      this.#held.delete(task.id);
      this.#write(due.task, due.json, due.context).catch((error: unknown) =>
        this.#logger.warn({ err: error, taskId: task.id }, 'progress of a task could not be saved'),
      );
    }, this.#progressDelayMs);
    timer.unref();
    this.#held.set(task.id, { json, task, context, timer });
  }

  #release(taskId: string): void {
    const held = this.#held.get(taskId);
    if (!held) return;
    clearTimeout(held.timer);
    this.#held.delete(taskId);
  }

  /** Writes every save still waiting now; e.g. before the process stops. */
  async flush(): Promise<void> {
    const held = [...this.#held.values()];
    for (const save of held) this.#release(save.task.id);
    await Promise.all(held.map((save) => this.#write(save.task, save.json, save.context)));
  }

  async #write(task: Task, json: string, context: ServerCallContext): Promise<void> {
    const keys = this.#keys;
    const scope = this.#scope(context);
    const state = task.status?.state;
    const score = scoreArg(timestampScore(task.status?.timestamp));
    const now = Date.now();
    const canceled = state === TaskState.TASK_STATE_CANCELED;
    const ttlMs =
      state !== undefined && TERMINAL_TASK_STATES.has(state) ? this.#terminalTtlMs : this.#activeTtlMs;
    const indexTtlMs = Math.max(this.#terminalTtlMs, this.#activeTtlMs);
    const before = this.#written.get(task.id);
    const known = before?.scope === scope && before.contextId === task.contextId ? before : undefined;
    // New here and absent when this process last looked (the SDK loads a task before its first save):
    // in no other state's index.
    const fresh = !known && this.#absent.delete(task.id);
    const stateKey = state === undefined ? undefined : keys.stateIndex(scope, state);
    const moved = !known || known.state !== state;
    // The owner key and the expiry index follow the task's TTL: written on its first write here, when
    // it changes class (active to terminal), and at most once a minute between; the owner is kept a
    // minute longer than the task, so the task never outlives it.
    const horizonDue = !known || known.ttlMs !== ttlMs || now - known.horizonWrittenAt >= HORIZON_REFRESH_MS;
    const commands: SaveCommand[] = [['SET', keys.task(task.id), json, 'PX', ttlMs]];
    const touched: string[] = [];
    if (horizonDue) {
      commands.push(['SET', keys.owner(task.id), scope, 'PX', ttlMs + HORIZON_REFRESH_MS]);
      commands.push(['ZADD', keys.expiry(scope), now + ttlMs, task.id]);
      touched.push(keys.expiry(scope));
    }
    // Index scores are the status timestamp of the task's last state change: written when the state
    // changes, not for an artifact or progress in the same state.
    if (moved) {
      const contextKey = keys.contextIndex(scope, task.contextId);
      commands.push(
        ['ZADD', keys.index(scope), score, task.id],
        ['ZADD', contextKey, score, task.id],
        // Every scope's too, for the operators (RedisTaskDirectory).
        ['ZADD', keys.recent(), score, task.id],
      );
      touched.push(keys.index(scope), contextKey, keys.recent());
      if (stateKey) {
        commands.push(['ZADD', stateKey, score, task.id]);
        touched.push(stateKey);
      }
    }
    if (!known) {
      commands.push(['HSET', keys.contextOf(scope), task.id, encodeURIComponent(task.contextId)]);
      touched.push(keys.contextOf(scope));
    }
    // A move leaves the index of the state this process last wrote; a task not running here and not
    // new (back after waiting or ending, when another replica may have moved it) leaves every other
    // state's index.
    if (!known && !fresh) {
      for (const other of INDEXED_TASK_STATES) {
        if (other !== state) commands.push(['ZREM', keys.stateIndex(scope, other), task.id]);
      }
    } else if (known && moved && known.state !== undefined) {
      commands.push(['ZREM', keys.stateIndex(scope, known.state), task.id]);
    }
    // Index keys outlive their tasks: each pushed back by this process at most once a minute.
    for (const key of touched) {
      if (this.#indexExpiries.due(key, now)) commands.push(['PEXPIRE', key, indexTtlMs]);
    }
    if (canceled) {
      commands.push(['SET', keys.canceled(task.id), '1', 'PX', ttlMs]);
      commands.push(['PUBLISH', taskCanceledChannel(keys.prefix), task.id]);
    }
    // Forgotten until the save is known to have landed: a failed one is written whole next time.
    this.#written.forget(task.id);
    let saved: boolean;
    try {
      // Any state but canceled is refused once the task was canceled (by another replica, say): this
      // process may hold an older copy of the task, and the cancel must win.
      saved = await runGuardedSave({
        redis: this.#redis,
        marker: keys.canceled(task.id),
        guard: !canceled,
        commands,
      });
    } catch (cause) {
      throw new HostError('REDIS_UNAVAILABLE', { message: `Task ${task.id} could not be saved.`, cause });
    }
    // A task that waits on its caller or has ended may go on elsewhere, and a refused one was canceled
    // elsewhere: forgotten, so its next load reads Redis and its next write clears every other state
    // index again.
    if (!saved || state === undefined || !RUNNING_STATES.has(state)) return;
    this.#written.set(task.id, {
      scope,
      contextId: task.contextId,
      state,
      artifacts: artifactsSignature(task),
      ttlMs,
      horizonWrittenAt: horizonDue ? now : (known?.horizonWrittenAt ?? now),
      json,
    });
  }

  /**
   * The task if it exists and belongs to the caller's scope; a corrupt entry is logged, not thrown.
   * A task this process runs (submitted or working, last written here) is read from what it last
   * saved, the progress it holds back included, without a round trip: the SDK loads the task on
   * every event. A cancel from another replica is seen by the next save, which it refuses.
   */
  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const scope = this.#scope(context);
    const held = this.#held.get(taskId);
    if (held && this.#scope(held.context) === scope) return taskOfOwnJson(taskId, held.json);
    const running = this.#written.get(taskId);
    if (running && running.scope === scope) return taskOfOwnJson(taskId, running.json);
    const [task] = await loadStoredTasks({
      redis: this.#redis,
      keys: this.#keys,
      ids: [taskId],
      scope,
      logger: this.#logger,
      onAbsent: (id) => this.#absent.add(id),
    });
    return task;
  }

  /** Lists the caller's tasks with the SDK's InMemoryTaskStore semantics (filters, order, paging). */
  async list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    const { contextId, status, pageSize = DEFAULT_PAGE_SIZE, pageToken, statusTimestampAfter } = params;
    const scope = this.#scope(context);
    const cursor = pageToken ? decodePageToken(pageToken) : undefined;
    const afterMs = statusTimestampAfter ? new Date(statusTimestampAfter).getTime() : undefined;
    if (afterMs !== undefined && Number.isNaN(afterMs)) {
      return { tasks: [], nextPageToken: '', pageSize, totalSize: 0 };
    }
    await pruneExpiredTasks({ redis: this.#redis, keys: this.#keys, scope });
    const stateFilter =
      status !== undefined && status !== TaskState.TASK_STATE_UNSPECIFIED ? status : undefined;
    const contextKey = contextId ? this.#keys.contextIndex(scope, contextId) : undefined;
    const stateKey = stateFilter === undefined ? undefined : this.#keys.stateIndex(scope, stateFilter);
    const keys: readonly [string] | readonly [string, string] =
      contextKey && stateKey ? [contextKey, stateKey] : [contextKey ?? stateKey ?? this.#keys.index(scope)];
    const window = await readTaskWindow({ redis: this.#redis, keys, cursor, afterMs, pageSize });
    const loaded = await this.#loadMany(window.ids, scope);
    const tasks = loaded.filter(
      (task): task is Task =>
        task !== undefined &&
        (!contextId || task.contextId === contextId) &&
        (stateFilter === undefined || task.status?.state === stateFilter),
    );
    if (!params.includeArtifacts) for (const task of tasks) task.artifacts = [];
    const lastId = window.ids.at(-1);
    let nextPageToken = '';
    if (window.hasMore && lastId !== undefined) {
      // The cursor is the score the task is indexed under: its status timestamp as of its last state
      // change (the task's own, written as it was, when they are the same instant).
      const timestamp = loaded.at(-1)?.status?.timestamp;
      nextPageToken = encodePageToken(
        timestamp !== undefined && timestampScore(timestamp) === window.lastScore
          ? timestamp
          : isoTimestamp(window.lastScore),
        lastId,
      );
    }
    return { tasks, nextPageToken, pageSize, totalSize: window.total };
  }

  #loadMany(ids: readonly string[], scope: string): Promise<(Task | undefined)[]> {
    return loadStoredTasks({ redis: this.#redis, keys: this.#keys, ids, scope, logger: this.#logger });
  }
}
