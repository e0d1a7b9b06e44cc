import { randomUUID } from 'node:crypto';
import { duplicateConnection, type RedisConnection } from '@switchboard/redis';

/** An entry as `XREAD` returns it: its id and its fields (name, value, name, value, …). */
export type RawEntry = [id: string, fields: string[]];

/** One reader of a stream: what has come for it, and where it is. */
export interface StreamFollower {
  readonly key: string;
}

interface FollowerState extends StreamFollower {
  /** The position of the last entry handed to it. */
  last: number;
  queue: RawEntry[];
  /** Wakes its `take` (an entry came, it failed, or it ended). */
  wake: (() => void) | undefined;
  failure: unknown;
  ended: boolean;
}

/** Options of {@link SharedStreamReader}. */
export interface SharedStreamReaderOptions {
  /** The caller's connection: duplicated for the reader, and used to wake it. */
  redis: RedisConnection;
  /** Key prefix; the wake stream is `<prefix>:task-events-wake:<id>`, in the prefix's hash tag. */
  prefix: string;
  /** The reader's connection name (`CLIENT LIST`). */
  connectionName: string;
  /** How long one `XREAD BLOCK` waits. */
  blockMs: number;
  /** Entries read per stream per round. */
  count: number;
}

const ENTRY_ID = /^0-(\d+)$/;
/** How long the wake stream is kept after it was last used. */
const WAKE_TTL_MS = 60_000;

/**
 * One blocking reader for every follower of a log's streams: a single connection doing `XREAD
 * BLOCK` over all the streams followed at once, handing each entry to the followers of its stream,
 * so the connections a process holds do not grow with the streams it follows. A follower that joins
 * while the read blocks wakes it with an entry on the reader's own wake stream, read in the same
 * `XREAD` (its key shares the prefix's hash tag, so on a Redis Cluster every key of one `XREAD` is
 * in one slot). The connection is opened with the first follower and closed with the last.
 */
export class SharedStreamReader {
  readonly #redis: RedisConnection;
  readonly #connectionName: string;
  readonly #wakeKey: string;
  readonly #blockMs: number;
  readonly #count: number;
  readonly #followers = new Set<FollowerState>();
  #connection: RedisConnection | undefined;
  #wakeId = '0-0';
  #closed = false;

  constructor({ redis, prefix, connectionName, blockMs, count }: SharedStreamReaderOptions) {
    this.#redis = redis;
    this.#connectionName = connectionName;
    this.#wakeKey = `${prefix}:task-events-wake:${randomUUID()}`;
    this.#blockMs = blockMs;
    this.#count = count;
  }

  /** Starts following `key` after position `after`. */
  add(key: string, after: number): StreamFollower {
    const follower: FollowerState = {
      key,
      last: after,
      queue: [],
      wake: undefined,
      failure: undefined,
      ended: this.#closed,
    };
    if (this.#closed) return follower;
    this.#followers.add(follower);
    if (this.#connection) this.#wakeReader();
    else this.#start();
    return follower;
  }

  /** Stops following; the last follower gone, the connection is closed. */
  remove(handle: StreamFollower): void {
    const follower = handle as FollowerState;
    if (!this.#followers.delete(follower)) return;
    follower.ended = true;
    follower.wake?.();
    if (this.#followers.size === 0) this.#stop();
  }

  /**
   * The entries that came for `handle` since the last call, waiting up to `waitMs` for one: empty
   * when none came in time, `undefined` once it has ended. Rejects with the read's error if the
   * reader failed.
   */
  async take(handle: StreamFollower, waitMs: number): Promise<RawEntry[] | undefined> {
    const follower = handle as FollowerState;
    if (follower.queue.length === 0 && !follower.ended && follower.failure === undefined) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, waitMs);
        follower.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      follower.wake = undefined;
    }
    if (follower.queue.length > 0) return follower.queue.splice(0);
    if (follower.failure !== undefined) throw follower.failure;
    return follower.ended ? undefined : [];
  }

  /** Ends every follower and closes the connection. */
  close(): void {
    this.#closed = true;
    for (const follower of this.#followers) {
      follower.ended = true;
      follower.wake?.();
    }
    this.#followers.clear();
    this.#stop();
  }

  #start(): void {
    const connection = duplicateConnection(this.#redis, this.#connectionName);
    connection.on('error', () => {});
    this.#connection = connection;
    void this.#run(connection);
  }

  #stop(): void {
    const connection = this.#connection;
    this.#connection = undefined;
    connection?.disconnect();
    this.#redis.unlink(this.#wakeKey).catch(() => {});
  }

  /** Tells a blocked read to come back and read the streams followed now. */
  #wakeReader(): void {
    this.#redis.xadd(this.#wakeKey, 'MAXLEN', '1', '*', 'wake', '1').catch(() => {});
    this.#redis.pexpire(this.#wakeKey, WAKE_TTL_MS).catch(() => {});
  }

  async #run(connection: RedisConnection): Promise<void> {
    while (this.#connection === connection) {
      // Each stream from the oldest position one of its followers is at.
      const from = new Map<string, number>();
      for (const follower of this.#followers) {
        from.set(follower.key, Math.min(from.get(follower.key) ?? follower.last, follower.last));
      }
      const keys = [...from.keys()];
      let reply: [string, RawEntry[]][] | null;
      try {
        reply = (await connection.xread(
          'COUNT',
          this.#count,
          'BLOCK',
          this.#blockMs,
          'STREAMS',
          ...keys,
          this.#wakeKey,
          ...keys.map((key) => `0-${from.get(key)}`),
          this.#wakeId,
        )) as [string, RawEntry[]][] | null;
      } catch (cause) {
        if (this.#connection !== connection) return;
        this.#fail(cause);
        return;
      }
      if (this.#connection !== connection) return;
      for (const [key, entries] of reply ?? []) {
        if (key === this.#wakeKey) {
          this.#wakeId = entries.at(-1)?.[0] ?? this.#wakeId;
          continue;
        }
        for (const follower of this.#followers) if (follower.key === key) this.#hand(follower, entries);
      }
    }
  }

  /** Gives a follower the entries after its position. */
  #hand(follower: FollowerState, entries: RawEntry[]): void {
    let given = false;
    for (const entry of entries) {
      const position = positionOf(entry[0]);
      if (position === undefined || position <= follower.last) continue;
      follower.queue.push(entry);
      follower.last = position;
      given = true;
    }
    if (given) follower.wake?.();
  }

  /** The read failed: each follower gets the error, and the connection is let go. */
  #fail(cause: unknown): void {
    for (const follower of this.#followers) {
      follower.failure = cause;
      follower.wake?.();
    }
    this.#followers.clear();
    this.#stop();
  }
}

/** The position of an entry id `0-<position>`. */
export function positionOf(id: string | undefined): number | undefined {
  const match = id ? ENTRY_ID.exec(id) : null;
  return match?.[1] ? Number(match[1]) : undefined;
}
