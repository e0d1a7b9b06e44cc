/**
 * Every error code `@switchboard/redis` raises, with its default message. A command that fails on a
 * live connection keeps ioredis's own error: this package only refuses a connection it cannot make.
 */
export const REDIS_CONNECTION_ERRORS = {
  INVALID_OPTIONS: { defaultMessage: 'The Redis connection options are not valid.' },
} as const satisfies Record<string, { defaultMessage: string }>;

/** A code from {@link REDIS_CONNECTION_ERRORS}. */
export type RedisConnectionErrorCode = keyof typeof REDIS_CONNECTION_ERRORS;

// A registry symbol, not a module-local one: two installed copies of this package still recognise
// each other's errors.
const MARKER = Symbol.for('@switchboard/redis.error');

/**
 * The one error class of `@switchboard/redis`: options that name no Redis, or name it wrongly. The
 * message says what to pass instead; it never holds a password.
 *
 * @example
 * if (isRedisConnectionError(error, 'INVALID_OPTIONS')) console.error(error.message);
 */
export class RedisConnectionError extends Error {
  readonly code: RedisConnectionErrorCode;
  readonly [MARKER] = true;

  constructor(
    code: RedisConnectionErrorCode,
    { message, cause }: { message?: string; cause?: unknown } = {},
  ) {
    super(
      message ?? REDIS_CONNECTION_ERRORS[code].defaultMessage,
      cause === undefined ? undefined : { cause },
    );
    this.name = new.target.name;
    this.code = code;
  }
}

/**
 * True when `error` is a {@link RedisConnectionError}, optionally with the given code; also for one
 * thrown by another installed copy of this package, which `instanceof` misses.
 */
export function isRedisConnectionError(
  error: unknown,
  code?: RedisConnectionErrorCode,
): error is RedisConnectionError {
  return (
    typeof error === 'object' &&
    error !== null &&
    MARKER in error &&
    (code === undefined || (error as { code?: unknown }).code === code)
  );
}
