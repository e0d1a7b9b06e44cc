// A registry symbol, not a module-local one: every Switchboard package and installed copy marks its
// errors with the same one.
const SWITCHBOARD_ERROR: unique symbol = Symbol.for('@switchboard/error');

/** Every error code of `@switchboard/delegate`, with the default message. */
export const DELEGATE_ERRORS = {
  INVALID_OPTIONS: 'The options passed to this call are not valid.',
  REDIS_UNAVAILABLE: 'Redis could not be reached.',
  NO_LIVE_REPLICA: 'The agent has no live replica to take the request.',
  BAD_REPLY: 'A reply could not be read.',
} as const;

/** A code from {@link DELEGATE_ERRORS}. */
export type DelegateErrorCode = keyof typeof DELEGATE_ERRORS;

/**
 * The error class of `@switchboard/delegate` (the caller's side of delegation), for failures of its own. What a model sees of a failed delegation is written by the delegation tools, never this error's text.
 * Marked with `Symbol.for('@switchboard/error')`, as every Switchboard error is, so a span names its code.
 */
export class DelegateError extends Error {
  readonly code: DelegateErrorCode;
  readonly [SWITCHBOARD_ERROR] = true;

  constructor(code: DelegateErrorCode, { message, cause }: { message?: string; cause?: unknown } = {}) {
    super(message ?? DELEGATE_ERRORS[code], cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.code = code;
  }
}
