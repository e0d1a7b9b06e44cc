import type { RedisConnection } from '@switchboard/redis';
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
  /** The stream expires this long after the last frame written (default 300 s). */
  expirySeconds?: number;
}

/**
 * Writes the reply frames of one call to the caller's inbox stream: `item` for each JSON-RPC
 * response of a stream, one `end` to close the call. A write that Redis refuses throws, so the job
 * fails and BullMQ retries it.
 *
 * @example
 * await new ReplyWriter({ redis, replyTo: envelope.replyTo, requestId: envelope.requestId }).end(body);
 */
export class ReplyWriter {
  readonly #redis: RedisConnection;
  readonly #replyTo: string;
  readonly #requestId: string;
  readonly #expirySeconds: number;
  /** When this writer last pushed the stream's expiry back (ms), so items between need not. */
  #expiresPushedAt = Number.NEGATIVE_INFINITY;

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

  /**
   * Appends a frame. The stream's expiry is pushed back with the first frame, the end, and at most
   * every quarter of it between (the items of a long stream): one command per item, not four.
   */
  async #write(kind: 'item' | 'end', body: string | undefined): Promise<void> {
    const fields = encodeFrame({ requestId: this.#requestId, kind, ...(body === undefined ? {} : { body }) });
    const now = Date.now();
    if (kind === 'item' && now - this.#expiresPushedAt < (this.#expirySeconds * 1000) / 4) {
      await this.#redis.xadd(this.#replyTo, 'MAXLEN', '~', MAX_FRAMES, '*', ...fields);
      return;
    }
    this.#expiresPushedAt = now;
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
