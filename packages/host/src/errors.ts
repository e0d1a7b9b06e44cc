// A registry symbol, not a module-local one: every Switchboard package and installed copy marks its
// errors with the same one.
const SWITCHBOARD_ERROR: unique symbol = Symbol.for('@switchboard/error');

/** Every error code of `@switchboard/host`, with the default message. */
export const HOST_ERRORS = {
  INVALID_OPTIONS: 'The options passed to this call are not valid.',
  REDIS_UNAVAILABLE: 'Redis could not be reached.',
  MESSAGE_IN_FLIGHT: 'The message is already being handled by another request.',
} as const;

/** A code from {@link HOST_ERRORS}. */
export type HostErrorCode = keyof typeof HOST_ERRORS;

/**
 * The error class of `@switchboard/host` (hosting an agent), for failures of its own. A2A protocol errors are the SDK's own classes, so a caller sees the same error over HTTP and queues;
 * the queue binding's own faults (`TIMEOUT`, …) are `@switchboard/a2a-bullmq`'s `QueueBindingError`.
 * Marked with `Symbol.for('@switchboard/error')`, as every Switchboard error is, so a span names its code.
 */
export class HostError extends Error {
  readonly code: HostErrorCode;
  readonly [SWITCHBOARD_ERROR] = true;

  constructor(code: HostErrorCode, { message, cause }: { message?: string; cause?: unknown } = {}) {
    super(message ?? HOST_ERRORS[code], cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.code = code;
  }
}
