/** Who has to act when an error happens: the caller of the API, or a dependency (Redis, the agent). */
export type QueueBindingErrorParty = 'caller' | 'dependency';

/**
 * Every error code `@switchboard/a2a-bullmq` raises, with who must act and the default message.
 * A2A protocol errors are not here: they are the SDK's own classes, as over HTTP.
 */
export const QUEUE_BINDING_ERRORS = {
  INVALID_OPTIONS: { party: 'caller', defaultMessage: 'The options passed to this call are not valid.' },
  REDIS_UNAVAILABLE: { party: 'dependency', defaultMessage: 'Redis could not be reached.' },
  TIMEOUT: { party: 'dependency', defaultMessage: 'No reply arrived in time.' },
  TRANSPORT_CLOSED: { party: 'caller', defaultMessage: 'The transport is closed.' },
  BAD_REPLY: { party: 'dependency', defaultMessage: 'A reply could not be read.' },
} as const satisfies Record<string, { party: QueueBindingErrorParty; defaultMessage: string }>;

/** A code from {@link QUEUE_BINDING_ERRORS}. */
export type QueueBindingErrorCode = keyof typeof QUEUE_BINDING_ERRORS;

// A registry symbol, not a module-local one: two installed copies of this package still recognise
// each other's errors.
const MARKER = Symbol.for('@switchboard/a2a-bullmq.error');

/**
 * The one error class of `@switchboard/a2a-bullmq`, for faults of the carrier itself: options,
 * Redis, a reply that does not come or cannot be read, a closed transport. `code` says what
 * happened, `party` who must act.
 *
 * @example
 * if (isQueueBindingError(error, 'TIMEOUT')) await client.getTask({ tenant: '', id: taskId });
 */
export class QueueBindingError extends Error {
  readonly code: QueueBindingErrorCode;
  readonly party: QueueBindingErrorParty;
  readonly [MARKER] = true;

  constructor(code: QueueBindingErrorCode, { message, cause }: { message?: string; cause?: unknown } = {}) {
    super(message ?? QUEUE_BINDING_ERRORS[code].defaultMessage, cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.code = code;
    this.party = QUEUE_BINDING_ERRORS[code].party;
  }
}

/**
 * True when `error` is a {@link QueueBindingError}, optionally with the given code; also for one
 * thrown by another installed copy of this package, which `instanceof` misses.
 */
export function isQueueBindingError(
  error: unknown,
  code?: QueueBindingErrorCode,
): error is QueueBindingError {
  return (
    typeof error === 'object' &&
    error !== null &&
    MARKER in error &&
    (code === undefined || (error as { code?: unknown }).code === code)
  );
}
