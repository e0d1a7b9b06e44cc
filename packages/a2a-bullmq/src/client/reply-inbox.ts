import { randomUUID } from 'node:crypto';
import { duplicateConnection, type RedisConnection } from '@switchboard/redis';
import { QueueBindingError } from '../errors.ts';
import { type QueueLogger, stderrLogger } from '../logger.ts';
import { decodeFrame, type ReplyFrame } from '../wire/reply-frame.ts';
import { beforeDeadline } from './deadline.ts';

/** Longest `close()` waits for the last read to end, and for the stream's delete. */
const CLOSE_WAIT_MS = 2_000;

/** Options of {@link ReplyInbox}. */
export interface ReplyInboxOptions {
  /** A connection the inbox may use; it opens its own blocking duplicate for reads. */
  redis: RedisConnection;
  /** Key namespace (default `switchboard`). In Redis Cluster each inbox is one key, so any slot works. */
  namespace?: string;
  /** The inbox stream expires this long after the caller stops refreshing it (default 300 s). */
  expirySeconds?: number;
  /** Where read failures are reported (default: stderr, as JSON lines). */
  logger?: QueueLogger;
}

type Waiter = { resolve: (frame: ReplyFrame) => void; reject: (error: unknown) => void };

/** The frames of one call, in arrival order: what {@link ReplyInbox.open} returns. */
export class ReplySubscription {
  readonly #frames: ReplyFrame[] = [];
  #waiter: Waiter | undefined;
  #failure: unknown;

  readonly requestId: string;
  readonly close: () => void;

  constructor(requestId: string, close: () => void) {
    this.requestId = requestId;
    this.close = close;
  }

  /** @internal */
  push(frame: ReplyFrame): void {
    if (this.#waiter) {
      const waiter = this.#waiter;
      this.#waiter = undefined;
      waiter.resolve(frame);
    } else this.#frames.push(frame);
  }

  /** @internal */
  fail(error: unknown): void {
    this.#failure = error;
    this.#waiter?.reject(error);
    this.#waiter = undefined;
  }

  /** The next frame; rejects after `timeoutMs` with `TIMEOUT`, or when `signal` fires. */
  next({ timeoutMs, signal }: { timeoutMs: number; signal?: AbortSignal | undefined }): Promise<ReplyFrame> {
    const ready = this.#frames.shift();
    if (ready) return Promise.resolve(ready);
    if (this.#failure) return Promise.reject(this.#failure);
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<ReplyFrame>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const timer = setTimeout(() => {
        this.#waiter = undefined;
        done();
        reject(
          new QueueBindingError('TIMEOUT', {
            message: `No reply within ${timeoutMs} ms. The agent may be busy or down; the request may still complete, so read the task with GetTask before sending it again.`,
          }),
        );
      }, timeoutMs);
      const onAbort = () => {
        this.#waiter = undefined;
        done();
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiter = {
        resolve: (frame) => {
          done();
          resolve(frame);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      };
    });
  }
}

/**
 * One reply stream per calling process, read by one blocking `XREAD` loop that hands each frame to
 * the call waiting for it: no listener per job, no per-call Redis state. Frames wait in the stream
 * while the connection is down and are read after it reconnects, so nothing is lost; the stream is
 * trimmed as it is read and expires when its caller is gone.
 *
 * `QueueTransportFactory` makes one for its transports; a caller that enqueues its own jobs (a
 * benchmark's floor, a worker outside `A2aQueueServer`) can use one with `ReplyWriter` on the
 * other side.
 *
 * @example
 * const inbox = new ReplyInbox({ redis });
 * const call = inbox.open(requestId); // before the job is sent
 * await queue.add('ping', { requestId, replyTo: inbox.key });
 * const frame = await call.next({ timeoutMs: 10_000 });
 * call.close();
 */
export class ReplyInbox {
  /** The stream key callers put in `replyTo`. */
  readonly key: string;
  readonly #redis: RedisConnection;
  readonly #reader: RedisConnection;
  readonly #expirySeconds: number;
  readonly #logger: QueueLogger;
  readonly #calls = new Map<string, ReplySubscription>();
  #lastId = '$';
  #loop: Promise<void> | undefined;
  #refresh: NodeJS.Timeout | undefined;
  #closed = false;

  constructor({
    redis,
    namespace = 'switchboard',
    expirySeconds = 300,
    logger = stderrLogger(),
  }: ReplyInboxOptions) {
    this.key = `${namespace}:reply:${randomUUID()}`;
    this.#redis = redis;
    this.#reader = duplicateConnection(redis, `${this.key}:reader`);
    // Its failures surface as failed reads, which the loop logs.
    this.#reader.on('error', () => {});
    this.#expirySeconds = expirySeconds;
    this.#logger = logger;
  }

  /** Calls waiting for replies right now. */
  get pending(): number {
    return this.#calls.size;
  }

  /** Registers a call before its job is sent, so no frame can arrive unclaimed. */
  open(requestId: string): ReplySubscription {
    if (this.#closed)
      throw new QueueBindingError('TRANSPORT_CLOSED', {
        message: 'The reply inbox is closed; create a new client.',
      });
    this.#start();
    const subscription = new ReplySubscription(requestId, () => this.#calls.delete(requestId));
    this.#calls.set(requestId, subscription);
    return subscription;
  }

  /** Stops reading, fails the calls still waiting, and deletes the stream (waiting at most 2 s for Redis each). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#refresh);
    for (const call of this.#calls.values()) {
      call.fail(
        new QueueBindingError('TRANSPORT_CLOSED', {
          message: 'The client was closed while waiting for a reply.',
        }),
      );
    }
    this.#calls.clear();
    this.#reader.disconnect();
    // While Redis is unreachable a read queued on the reader may never settle, and the stream expires
    // by itself: close waits a bounded time for either.
    await beforeDeadline(this.#loop ?? Promise.resolve(), { ms: CLOSE_WAIT_MS }).catch(() => {});
    await beforeDeadline(this.#redis.del(this.key), { ms: CLOSE_WAIT_MS }).catch(() => {});
  }

  #start(): void {
    if (this.#loop) return;
    // The first read starts from '0' of a fresh stream: frames that arrive before it are kept.
    this.#lastId = '0';
    this.#refresh = setInterval(
      () => {
        this.#redis.expire(this.key, this.#expirySeconds).catch(() => {});
      },
      (this.#expirySeconds * 1000) / 3,
    );
    this.#refresh.unref();
    this.#loop = this.#read();
  }

  async #read(): Promise<void> {
    while (!this.#closed) {
      try {
        const result = await this.#reader.xread(
          'COUNT',
          512,
          'BLOCK',
          1000,
          'STREAMS',
          this.key,
          this.#lastId,
        );
        if (!result) continue;
        for (const [, entries] of result) {
          for (const [id, fields] of entries) {
            this.#lastId = id;
            const frame = decodeFrame(fields);
            if (frame) this.#calls.get(frame.requestId)?.push(frame);
          }
        }
        this.#redis.xtrim(this.key, 'MINID', this.#lastId).catch(() => {});
      } catch (error) {
        if (this.#closed) return;
        this.#logger.warn({ err: error, inbox: this.key }, 'reply inbox read failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  }
}
