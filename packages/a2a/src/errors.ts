/** Every error code of `@switchboard/a2a`, with the default message. */
export const A2A_ERRORS = {
  INVALID_OPTIONS: 'The options passed to this call are not valid.',
  REDIS_UNAVAILABLE: 'Redis could not be reached.',
  NO_LIVE_REPLICA: 'The agent has no live replica to take the request.',
  BAD_REPLY: 'A reply could not be read.',
  MESSAGE_IN_FLIGHT: 'The message is already being handled by another request.',
} as const;

/** A code from {@link A2A_ERRORS}. */
export type A2aErrorCode = keyof typeof A2A_ERRORS;

/**
 * The error class of `@switchboard/a2a` for failures of its own (options, Redis, replies). A2A
 * protocol errors are the SDK's own classes, so a caller sees the same error over HTTP and queues;
 * the queue binding's own faults (`TIMEOUT`, …) are `@switchboard/a2a-bullmq`'s `QueueBindingError`.
 */
export class A2aError extends Error {
  readonly code: A2aErrorCode;

  constructor(code: A2aErrorCode, { message, cause }: { message?: string; cause?: unknown } = {}) {
    super(message ?? A2A_ERRORS[code], cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.code = code;
  }
}
