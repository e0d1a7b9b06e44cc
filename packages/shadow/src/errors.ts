// A registry symbol, not a module-local one: every Switchboard package and installed copy marks its
// errors with the same one.
const SWITCHBOARD_ERROR: unique symbol = Symbol.for('@switchboard/error');

/** Every error code of `@switchboard/shadow`, with the default message. */
export const SHADOW_ERRORS = {
  INVALID_OPTIONS: 'The options passed to this call are not valid.',
} as const;

/** A code from {@link SHADOW_ERRORS}. */
export type ShadowErrorCode = keyof typeof SHADOW_ERRORS;

/**
 * The error class of `@switchboard/shadow` (shadow mode), for failures of its own. A shadow's own failures never reach the live run: they are logged and recorded on the pair.
 * Marked with `Symbol.for('@switchboard/error')`, as every Switchboard error is, so a span names its code.
 */
export class ShadowError extends Error {
  readonly code: ShadowErrorCode;
  readonly [SWITCHBOARD_ERROR] = true;

  constructor(code: ShadowErrorCode, { message, cause }: { message?: string; cause?: unknown } = {}) {
    super(message ?? SHADOW_ERRORS[code], cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.code = code;
  }
}
