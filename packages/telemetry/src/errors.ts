/** Who has to act when an error happens: the caller of the API, us (a bug), or a dependency. */
export type TelemetryErrorParty = 'caller' | 'internal' | 'dependency';

/** Every error code `@switchboard/telemetry` raises, with who must act and the default message. */
export const TELEMETRY_ERRORS = {
  INVALID_OPTIONS: { party: 'caller', defaultMessage: 'The options passed to this call are not valid.' },
  SPAN_FILE_NOT_FOUND: { party: 'caller', defaultMessage: 'The span file does not exist.' },
  SPAN_FILE_INVALID: { party: 'caller', defaultMessage: 'The span file holds a line that is not a span.' },
  JAEGER_UNREACHABLE: { party: 'dependency', defaultMessage: 'The Jaeger query API could not be reached.' },
  JAEGER_BAD_RESPONSE: { party: 'dependency', defaultMessage: 'Jaeger answered with data we cannot read.' },
  TRACE_NOT_FOUND: { party: 'caller', defaultMessage: 'The trace was not found.' },
} as const satisfies Record<string, { party: TelemetryErrorParty; defaultMessage: string }>;

/** A code from {@link TELEMETRY_ERRORS}. */
export type TelemetryErrorCode = keyof typeof TELEMETRY_ERRORS;

/**
 * The one error class of `@switchboard/telemetry`: `code` says what happened, `party` who must act.
 *
 * @example
 * throw new TelemetryError('TRACE_NOT_FOUND', { message: `Jaeger has no trace ${traceId}.` });
 */
export class TelemetryError extends Error {
  readonly code: TelemetryErrorCode;
  readonly party: TelemetryErrorParty;

  constructor(code: TelemetryErrorCode, { message, cause }: { message?: string; cause?: unknown } = {}) {
    super(message ?? TELEMETRY_ERRORS[code].defaultMessage, cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.code = code;
    this.party = TELEMETRY_ERRORS[code].party;
  }
}

/** True when `error` is a {@link TelemetryError}, optionally with the given code. */
export function isTelemetryError(error: unknown, code?: TelemetryErrorCode): error is TelemetryError {
  return error instanceof TelemetryError && (code === undefined || error.code === code);
}
