/**
 * Who has to act when an error happens: the caller of the API, us (a bug or corrupt data), or a
 * dependency that is down.
 */
export type CustomerServiceErrorParty = 'caller' | 'internal' | 'dependency';

/** Every error code of `@switchboard/customer-service`, with who must act and the default message. */
export const CUSTOMER_SERVICE_ERRORS = {
  INVALID_OPTIONS: { party: 'caller', defaultMessage: 'The options passed to this call are not valid.' },
  INVALID_FIXTURE: { party: 'caller', defaultMessage: 'The shop fixture does not match its schema.' },
  IDEMPOTENCY_KEY_REUSED: {
    party: 'caller',
    defaultMessage: 'An idempotency key was reused for a different action.',
  },
  CORRUPT_RECORD: { party: 'internal', defaultMessage: 'A stored shop record could not be read.' },
  STORE_UNAVAILABLE: { party: 'dependency', defaultMessage: 'The shop store could not be reached.' },
} as const satisfies Record<string, { party: CustomerServiceErrorParty; defaultMessage: string }>;

/** A code from {@link CUSTOMER_SERVICE_ERRORS}. */
export type CustomerServiceErrorCode = keyof typeof CUSTOMER_SERVICE_ERRORS;

/**
 * The one error class of `@switchboard/customer-service`. Domain outcomes a customer can cause
 * (an unknown order, an order already refunded) are results, not errors; this is for misuse,
 * corrupt data and an unreachable store.
 *
 * @example
 * throw new CustomerServiceError('INVALID_OPTIONS', { message: 'MemoryShopStore needs ...' });
 */
export class CustomerServiceError extends Error {
  readonly code: CustomerServiceErrorCode;
  readonly party: CustomerServiceErrorParty;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    code: CustomerServiceErrorCode,
    {
      message,
      cause,
      details,
    }: { message?: string; cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(
      message ?? CUSTOMER_SERVICE_ERRORS[code].defaultMessage,
      cause === undefined ? undefined : { cause },
    );
    this.name = new.target.name;
    this.code = code;
    this.party = CUSTOMER_SERVICE_ERRORS[code].party;
    this.details = details;
  }
}

/** True when `error` is a {@link CustomerServiceError}, optionally with the given code. */
export function isCustomerServiceError(
  error: unknown,
  code?: CustomerServiceErrorCode,
): error is CustomerServiceError {
  return error instanceof CustomerServiceError && (code === undefined || error.code === code);
}
