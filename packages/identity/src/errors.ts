// A registry symbol, not a module-local one: every Switchboard package and installed copy marks its
// errors with the same one.
const SWITCHBOARD_ERROR: unique symbol = Symbol.for('@switchboard/error');

/** Every error code of `@switchboard/identity`, with the default message. */
export const IDENTITY_ERRORS = {
  INVALID_OPTIONS: 'The options passed to this call are not valid.',
} as const;

/** A code from {@link IDENTITY_ERRORS}. */
export type IdentityErrorCode = keyof typeof IDENTITY_ERRORS;

/**
 * The error class of `@switchboard/identity` (identity (tokens, keys, signatures)), for failures of its own. A credential that is refused is not an error: an authenticator answers `undefined` for it, so the
 * caller is told only that it is unauthenticated.
 * Marked with `Symbol.for('@switchboard/error')`, as every Switchboard error is, so a span names its code.
 */
export class IdentityError extends Error {
  readonly code: IdentityErrorCode;
  readonly [SWITCHBOARD_ERROR] = true;

  constructor(code: IdentityErrorCode, { message, cause }: { message?: string; cause?: unknown } = {}) {
    super(message ?? IDENTITY_ERRORS[code], cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.code = code;
  }
}
