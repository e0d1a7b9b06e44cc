/** Who has to act when an error happens: the caller of the API, or us (a bug, a broken install). */
export type CardsErrorParty = 'caller' | 'internal';

/** Every error code `@switchboard/cards` raises, with who must act and the default message. */
export const CARDS_ERRORS = {
  INVALID_OPTIONS: { party: 'caller', defaultMessage: 'The options passed to this call are not valid.' },
  NOT_A_CARD: {
    party: 'caller',
    defaultMessage: 'This document is not an A2A Agent Card, so it cannot be converted.',
  },
  NOT_CONVERTIBLE: {
    party: 'caller',
    defaultMessage: 'This card cannot be converted to a card that passes the checker for the other version.',
  },
  SCHEMA_UNAVAILABLE: { party: 'internal', defaultMessage: 'A bundled A2A JSON Schema could not be loaded.' },
} as const satisfies Record<string, { party: CardsErrorParty; defaultMessage: string }>;

/** A code from {@link CARDS_ERRORS}. */
export type CardsErrorCode = keyof typeof CARDS_ERRORS;

// A registry symbol, not a module-local one: two installed copies of this package (a CLI and a
// service each with their own) still recognise each other's errors.
const MARKER = Symbol.for('@switchboard/cards.error');

/**
 * The one error class of `@switchboard/cards`: `code` says what happened, `party` who must act.
 * Checking and diffing never throw for any card; a call with bad options does, and so does a
 * conversion that cannot produce a usable card.
 *
 * @example
 * throw new CardsError('INVALID_OPTIONS', { message: 'checkCard: version must be "1.0" or "0.3"' });
 */
export class CardsError extends Error {
  readonly code: CardsErrorCode;
  readonly party: CardsErrorParty;
  readonly [MARKER] = true;

  constructor(code: CardsErrorCode, { message, cause }: { message?: string; cause?: unknown } = {}) {
    super(message ?? CARDS_ERRORS[code].defaultMessage, cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.code = code;
    this.party = CARDS_ERRORS[code].party;
  }
}

/**
 * True when `error` is a {@link CardsError}, optionally with the given code; also for one thrown by
 * another installed copy of this package, which `instanceof` misses.
 */
export function isCardsError(error: unknown, code?: CardsErrorCode): error is CardsError {
  return (
    typeof error === 'object' &&
    error !== null &&
    MARKER in error &&
    (code === undefined || (error as { code?: unknown }).code === code)
  );
}
