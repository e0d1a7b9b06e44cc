import { StreamResponse } from '@a2a-js/sdk';
import { type Logger, stderrLogger } from '@switchboard/agent';
import { isCluster, type RedisConnection } from '@switchboard/redis';
import { z } from 'zod';
import { HostError } from '../errors.ts';
import { COMPACT_EVENT_FIELD, compactEvent, expandEvent, FULL_EVENT_FIELD } from './compact-form.ts';
import { DEFAULT_RETENTION_SECONDS } from './retention.ts';
import { positionOf, type RawEntry, SharedStreamReader } from './shared-stream-reader.ts';

/** A task's event as its stream holds it: a `StreamResponse` and its position (1, 2, 3, …). */
export interface PositionedEvent {
  position: number;
  event: StreamResponse;
}

/**
 * What a reader of a task's events needs of its log (the console's live request page): what the
 * task's current run published so far, and each event after a position as it comes.
 */
export type TaskEventFeed = Pick<RedisTaskEventLog, 'sinceLastTask' | 'follow'>;

/** Options of {@link RedisTaskEventLog}. */
export interface RedisTaskEventLogOptions {
  /**
   * An ioredis connection; the caller owns it. The followers share one duplicate of it while there
   * are any, named `<prefix>:task-events-reader` (see `CLIENT LIST`).
   */
  redis: RedisConnection;
  /**
   * Key prefix of this agent, e.g. `{switchboard:orders}`. On a Redis Cluster it must hold a hash
   * tag: every stream of the agent is then in one slot, and one `XREAD` reads them all.
   */
  prefix: string;
  /** About how many events a task's stream keeps (`XADD MAXLEN ~`); default 10 000. */
  maxLength?: number;
  /** How long a stream is kept after its last event; default 7 days, as the tasks. */
  retentionSeconds?: number;
  /** How long a follower's `XREAD BLOCK` waits before it looks at the stored task again; default 5 s. */
  blockMs?: number;
  /**
   * How long a `SubscribeToTask` stream may go without an event before the host ends it, with the
   * task's current status and a position to resume from (see `followTaskEvents`); default 5 minutes.
   */
  followerIdleMs?: number;
  /** Where write failures and corrupt entries are reported; default JSON lines on stderr. */
  logger?: Pick<Logger, 'warn'>;
}

const PAGE = 200;
/** A key prefix that fixes its keys' Cluster slot: its first `{` is closed by a `}` after a character. */
const HASH_TAGGED = /^[^{]*\{[^}]+\}/;
/** The default of {@link RedisTaskEventLogOptions.followerIdleMs}: 5 minutes. */
export const DEFAULT_FOLLOWER_IDLE_MS = 300_000;
const JsonObject = z.record(z.string(), z.unknown());

/** What an entry holds: exactly one of the task events of a `StreamResponse`, as ProtoJSON. */
const StoredEvent = z.union([
  z.strictObject({ task: JsonObject }),
  z.strictObject({ statusUpdate: JsonObject }),
  z.strictObject({ artifactUpdate: JsonObject }),
]);

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new HostError('INVALID_OPTIONS', {
      message: `RedisTaskEventLog ${name} must be a positive whole number, got ${value}.`,
    });
  }
  return value;
}

/**
 * Each task's events in a Redis Stream, `<prefix>:task-events:<taskId>`, so every replica of an agent
 * can follow a task that runs on another. An entry's id is `0-<position>`: Redis numbers a task's
 * events 1, 2, 3, … itself (`XADD … 0-*`, Redis 7), whichever replica appends them. One
 * `XADD … MAXLEN ~ maxLength` per event, in the compact form of `compact-form.ts` (field `c`; entries of
 * the full form, field `e`, are still read), with a `PEXPIRE` to `retentionSeconds` when the caller asks
 * (see `RedisEventBusManager`: a task's first event, its last, and one a minute between). A stream
 * that expired starts again from 1.
 *
 * @example
 * const log = new RedisTaskEventLog({ redis, prefix: '{switchboard:orders}' });
 * await hostAgent({ agent, model, http: {}, stores: { taskStore, eventLog: log } });
 */
export class RedisTaskEventLog {
  readonly #redis: RedisConnection;
  readonly #prefix: string;
  readonly #maxLength: number;
  readonly #retentionMs: number;
  readonly #blockMs: number;
  readonly #logger: Pick<Logger, 'warn'>;
  readonly #followerIdleMs: number;
  readonly #reader: SharedStreamReader;
  #closed = false;

  constructor({
    redis,
    prefix,
    maxLength = 10_000,
    retentionSeconds = DEFAULT_RETENTION_SECONDS,
    blockMs = 5_000,
    followerIdleMs = DEFAULT_FOLLOWER_IDLE_MS,
    logger = stderrLogger(),
  }: RedisTaskEventLogOptions) {
    if (typeof redis?.xadd !== 'function') {
      throw new HostError('INVALID_OPTIONS', { message: 'RedisTaskEventLog needs an ioredis connection.' });
    }
    if (typeof prefix !== 'string' || prefix === '') {
      throw new HostError('INVALID_OPTIONS', {
        message: 'RedisTaskEventLog needs a non-empty prefix, e.g. { prefix: "{switchboard:orders}" }.',
      });
    }
    if (isCluster(redis) && !HASH_TAGGED.test(prefix)) {
      throw new HostError('INVALID_OPTIONS', {
        message: `RedisTaskEventLog prefix "${prefix}" has no hash tag; on a Redis Cluster its streams must share one slot to be read together: put the agent's name in braces, e.g. { prefix: "{switchboard:orders}" }.`,
      });
    }
    this.#redis = redis;
    this.#prefix = prefix;
    this.#maxLength = positiveInteger('maxLength', maxLength);
    this.#retentionMs = positiveInteger('retentionSeconds', retentionSeconds) * 1000;
    this.#blockMs = positiveInteger('blockMs', blockMs);
    this.#followerIdleMs = positiveInteger('followerIdleMs', followerIdleMs);
    this.#logger = logger;
    this.#reader = new SharedStreamReader({
      redis,
      prefix,
      connectionName: `${prefix}:task-events-reader`,
      blockMs: this.#blockMs,
      count: PAGE,
    });
  }

  /**
   * How long a follower may wait without an event before `SubscribeToTask` ends its stream (see
   * `followTaskEvents`), in ms.
   */
  get followerIdleMs(): number {
    return this.#followerIdleMs;
  }

  /** How long a stream is kept after its last event, in ms. */
  get retentionMs(): number {
    return this.#retentionMs;
  }

  /** The stream of one task's events. */
  key(taskId: string): string {
    return `${this.#prefix}:task-events:${taskId}`;
  }

  /**
   * Appends an event (without waiting: commands on one connection run in the order they are sent, so
   * the events of a task keep their order). Plain commands, not a pipeline of their own: on a
   * connection with auto-pipelining they go out in one write with whatever else this tick sends (the
   * save that follows the event, the next event). A failed write is logged; followers then miss that
   * event.
   */
  append(taskId: string, event: StreamResponse, { refreshExpiry }: { refreshExpiry: boolean }): void {
    const key = this.key(taskId);
    const json = JSON.stringify(
      compactEvent(taskId, StreamResponse.toJSON(event) as Record<string, unknown>),
    );
    const failed = (error: unknown) =>
      this.#logger.warn({ err: error, taskId, key }, 'a task event could not be added to its stream');
    this.#redis.xadd(key, 'MAXLEN', '~', this.#maxLength, '0-*', COMPACT_EVENT_FIELD, json).catch(failed);
    if (refreshExpiry) this.#redis.pexpire(key, this.#retentionMs).catch(failed);
  }

  /** The first and last positions the stream still holds; `undefined` when it holds none. */
  async bounds(taskId: string): Promise<{ first: number; last: number } | undefined> {
    const key = this.key(taskId);
    const [oldest, newest] = await this.#read(() =>
      Promise.all([
        this.#redis.xrange(key, '-', '+', 'COUNT', 1),
        this.#redis.xrevrange(key, '+', '-', 'COUNT', 1),
      ]),
    );
    const first = positionOf(oldest[0]?.[0]);
    const last = positionOf(newest[0]?.[0]);
    return first === undefined || last === undefined ? undefined : { first, last };
  }

  /**
   * The events from the last `task` event the stream holds (a run's first event: the whole task as it
   * started) to the newest, in order, and the newest position (0 when the stream holds nothing). The
   * events are empty when no `task` event is left (the stream was trimmed past it, or has expired).
   */
  async sinceLastTask(taskId: string): Promise<{ events: PositionedEvent[]; last: number }> {
    const key = this.key(taskId);
    const found: PositionedEvent[] = [];
    let last: number | undefined;
    let end = '+';
    while (true) {
      const page = (await this.#read(() =>
        this.#redis.xrevrange(key, end, '-', 'COUNT', PAGE),
      )) as RawEntry[];
      for (const entry of page) {
        const read = this.#decode(taskId, entry);
        last ??= positionOf(entry[0]);
        if (!read) continue;
        found.push(read);
        if (read.event.payload?.$case === 'task') return { events: found.reverse(), last: last ?? 0 };
      }
      const oldest = positionOf(page.at(-1)?.[0]);
      if (page.length < PAGE || oldest === undefined || oldest <= 1) return { events: [], last: last ?? 0 };
      end = `0-${oldest - 1}`;
    }
  }

  /**
   * The events after `after`, then each new one as it is added; `undefined` each time `blockMs`
   * passes with nothing new, so the caller can look at the task. Every follower of this log is read
   * by one shared connection (`XREAD BLOCK` over all their streams, see `SharedStreamReader`), named
   * `<prefix>:task-events-reader`, opened with the first follower and closed with the last. Ends
   * when `signal` aborts or the log is closed.
   */
  async *follow(
    taskId: string,
    { after, signal }: { after: number; signal?: AbortSignal | undefined },
  ): AsyncGenerator<PositionedEvent | undefined, void, undefined> {
    if (this.#closed || signal?.aborted) return;
    const follower = this.#reader.add(this.key(taskId), after);
    const stop = () => this.#reader.remove(follower);
    signal?.addEventListener('abort', stop, { once: true });
    try {
      while (!this.#closed && !signal?.aborted) {
        let entries: RawEntry[] | undefined;
        try {
          entries = await this.#reader.take(follower, this.#blockMs);
        } catch (cause) {
          if (this.#closed || signal?.aborted) return;
          throw new HostError('REDIS_UNAVAILABLE', {
            message: `The events of task ${taskId} could not be read.`,
            cause,
          });
        }
        if (entries === undefined) return;
        if (entries.length === 0) {
          yield undefined;
          continue;
        }
        for (const entry of entries) {
          const read = this.#decode(taskId, entry);
          if (read) yield read;
        }
      }
    } finally {
      signal?.removeEventListener('abort', stop);
      this.#reader.remove(follower);
    }
  }

  /** Ends every follower and closes the reader's connection (not the caller's). Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#reader.close();
  }

  async #read<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (cause) {
      throw new HostError('REDIS_UNAVAILABLE', {
        message: 'The task event stream could not be read.',
        cause,
      });
    }
  }

  /** An entry as an event, in its compact form or the full one; a corrupt one is logged and skipped. */
  #decode(taskId: string, [id, fields]: RawEntry): PositionedEvent | undefined {
    const position = positionOf(id);
    const compact = fieldOf(fields, COMPACT_EVENT_FIELD);
    const json = compact ?? fieldOf(fields, FULL_EVENT_FIELD);
    let reason: string;
    try {
      const parsed = StoredEvent.safeParse(JSON.parse(json ?? ''));
      if (position !== undefined && parsed.success) {
        const stored = compact === undefined ? parsed.data : expandEvent(taskId, parsed.data);
        return { position, event: StreamResponse.fromJSON(stored) };
      }
      reason = parsed.success ? `entry id ${id} is not 0-<position>` : z.prettifyError(parsed.error);
    } catch (error) {
      reason = error instanceof Error ? error.message : String(error);
    }
    this.#logger.warn({ taskId, key: this.key(taskId), id, reason }, 'corrupt task event ignored');
    return undefined;
  }
}

/** The value of field `name` of a stream entry (its fields are name, value, name, value, …). */
function fieldOf(fields: string[], name: string): string | undefined {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
  return undefined;
}
