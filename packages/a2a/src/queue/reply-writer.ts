import type { Redis } from 'ioredis';
import { encodeFrame } from './envelope.ts';

/** Reply streams keep at most about this many frames; a caller reads far faster. */
const MAX_FRAMES = 10_000;

/** Writes the reply frames of one call to the caller's inbox stream. */
export class ReplyWriter {
  readonly redis: Redis;
  readonly replyTo: string;
  readonly requestId: string;
  readonly expirySeconds: number;

  constructor(redis: Redis, replyTo: string, requestId: string, expirySeconds = 300) {
    this.redis = redis;
    this.replyTo = replyTo;
    this.requestId = requestId;
    this.expirySeconds = expirySeconds;
  }

  item(body: string): Promise<void> {
    return this.#write('item', body);
  }

  end(body?: string): Promise<void> {
    return this.#write('end', body);
  }

  async #write(kind: 'item' | 'end', body: string | undefined): Promise<void> {
    const fields = encodeFrame({ requestId: this.requestId, kind, ...(body === undefined ? {} : { body }) });
    const results = await this.redis
      .multi()
      .xadd(this.replyTo, 'MAXLEN', '~', MAX_FRAMES, '*', ...fields)
      .expire(this.replyTo, this.expirySeconds)
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
