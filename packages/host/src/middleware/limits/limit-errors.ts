import { A2AError, RequestMalformedError } from '@a2a-js/sdk/errors';

/** JSON-RPC's implementation-defined server error, the code of a limit refusal over JSON-RPC. */
export const JSON_RPC_SERVER_ERROR = -32000;

/** The `ErrorInfo.reason` of a request refused for a rate or concurrency limit. */
export const TOO_MANY_REQUESTS_REASON = 'TOO_MANY_REQUESTS';

/** The request limits a refusal can name (`ErrorInfo.metadata.limit`). */
export type LimitName =
  | 'maxMessageBytes'
  | 'maxMessageParts'
  | 'requestsPerMinute'
  | 'maxTasksInFlight'
  | 'maxOpenStreams';

/**
 * A request refused because its caller sent too many, runs too many tasks or holds too many streams
 * open at once: an A2A error
 * whose `ErrorInfo` (`data` in JSON-RPC, `details` in REST) has reason `TOO_MANY_REQUESTS` and
 * metadata `{ limit, retryAfterMs }`. Over HTTP it is answered with status 429 and `Retry-After`.
 */
export class TooManyRequestsError extends A2AError {
  override readonly reason = TOO_MANY_REQUESTS_REASON;
  readonly limit: LimitName;
  readonly retryAfterMs: number;

  constructor({ message, limit, retryAfterMs }: { message: string; limit: LimitName; retryAfterMs: number }) {
    super({ message, metadata: { limit, retryAfterMs: String(retryAfterMs) } });
    this.limit = limit;
    this.retryAfterMs = retryAfterMs;
  }
}

/** A message over a size limit: the caller's mistake (`InvalidParams` / 400), with the limit named. */
export function messageTooLarge({
  limit,
  message,
  max,
  actual,
}: {
  limit: Extract<LimitName, 'maxMessageBytes' | 'maxMessageParts'>;
  message: string;
  max: number;
  actual: number;
}): A2AError {
  return new RequestMalformedError({
    message,
    metadata: { limit, max: String(max), actual: String(actual) },
  });
}

/** `23 s` for 22_100 ms: whole seconds, rounded up, at least 1. */
export function inSeconds(ms: number): string {
  return `${Math.max(1, Math.ceil(ms / 1000))} s`;
}

/** `16 KB` for 16_384 bytes, `900 B` below a kilobyte. */
export function inKilobytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${Math.round((bytes / 1024) * 10) / 10} KB`;
}
