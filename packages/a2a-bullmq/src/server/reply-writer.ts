import type { RedisConnection } from '../redis/redis-connection.ts';
import { encodeFrame } from '../wire/reply-frame.ts';

/** Reply streams keep at most about this many frames; a caller reads far faster. */
const MAX_FRAMES = 10_000;

/** Options of {@link ReplyWriter}. */
export interface ReplyWriterOptions {
  redis: RedisConnection;
  /** The caller's reply stream key (the envelope's `replyTo`, a `ReplyInbox`'s `key`). */
  replyTo: string;
  /** The call the frames answer (the envelope's `requestId`). */
  requestId: string;
  /**
   * A stream this writer has to create (its caller made none: a caller from before inboxes made
   * their own, or one that is gone) expires this long after its last frame (default 300 s).
   */
  expirySeconds?: number;
}

/**
 * Writes the reply frames of one call to the caller's inbox stream: `item` for each JSON-RPC
 * response of a stream, one `end` to close the call. The caller's `ReplyInbox` makes its stream and
 * keeps it alive, so a frame is one `XADD ... NOMKSTREAM`; only when that finds no stream is it
 * written with the stream's expiry (`MULTI`: `XADD`, `EXPIRE`), so a stream nobody keeps never
 * outlives `expirySeconds`. A write that Redis refuses throws, so the job fails and BullMQ retries it.
 *
 * @example
 * await new ReplyWriter({ redis, replyTo: envelope.replyTo, requestId: envelope.requestId }).end(body);
 */
export class ReplyWriter {
  readonly #redis: RedisConnection;
  readonly #replyTo: string;
  readonly #requestId: string;
  readonly #expirySeconds: number;

  constructor({ redis, replyTo, requestId, expirySeconds = 300 }: ReplyWriterOptions) {
    this.#redis = redis;
    this.#replyTo = replyTo;
    this.#requestId = requestId;
    this.#expirySeconds = expirySeconds;
  }

  /** One JSON-RPC response of a stream. */
  item(body: string): Promise<void> {
    return this.#write('item', body);
  }

  /** Closes the call: with the JSON-RPC response of a unary call, or the error that ended a stream. */
  end(body?: string): Promise<void> {
    return this.#write('end', body);
  }

  async #write(kind: 'item' | 'end', body: string | undefined): Promise<void> {
    const fields = encodeFrame({ requestId: this.#requestId, kind, ...(body === undefined ? {} : { body }) });
    const added = await this.#redis.xadd(
      this.#replyTo,
      'NOMKSTREAM',
      'MAXLEN',
      '~',
      MAX_FRAMES,
      '*',
      ...fields,
    );
    if (added !== null) return;
    const results = await this.#redis
      .multi()
      .xadd(this.#replyTo, 'MAXLEN', '~', MAX_FRAMES, '*', ...fields)
      .expire(this.#replyTo, this.#expirySeconds)
      .exec();
    // MULTI reports a failed command in its results instead of rejecting: surface it, so the job is retried.
    const failure = results?.find(([error]) => error)?.[0];
    if (failure) throw failure;
  }
}

/** A JSON-RPC error response as text. */
export function errorResponse(id: string | number | null, code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });
}
