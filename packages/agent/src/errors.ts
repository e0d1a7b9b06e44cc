/**
 * Who has to act when an error happens: the caller of the API, the model (it sent something we
 * refused), us (a bug), or a dependency that is down.
 */
export type ErrorParty = 'caller' | 'model' | 'internal' | 'dependency';

/** Every error code the agent runtime raises, with who must act and the default message. */
export const AGENT_ERRORS = {
  INVALID_OPTIONS: { party: 'caller', defaultMessage: 'The options passed to this call are not valid.' },
  INVALID_TOOL_DEFINITION: { party: 'caller', defaultMessage: 'The tool definition is not valid.' },
  DUPLICATE_TOOL: { party: 'caller', defaultMessage: 'Two tools have the same name.' },
  MALFORMED_HISTORY: {
    party: 'caller',
    defaultMessage: 'The conversation history breaks the tool-call rules and was not sent to the model.',
  },
  SCRIPT_EXHAUSTED: { party: 'caller', defaultMessage: 'The scripted model has no turn left to play.' },
  MODEL_UNAVAILABLE: { party: 'dependency', defaultMessage: 'The model endpoint could not be reached.' },
  MODEL_AUTH: { party: 'caller', defaultMessage: 'The model endpoint refused the API key.' },
  MODEL_RATE_LIMITED: {
    party: 'dependency',
    defaultMessage: 'The model endpoint is rate limiting requests.',
  },
  MODEL_BAD_REQUEST: { party: 'internal', defaultMessage: 'The model endpoint rejected the request.' },
  MODEL_BAD_RESPONSE: {
    party: 'dependency',
    defaultMessage: 'The model endpoint sent a response we cannot use.',
  },
  STRUCTURED_OUTPUT_INVALID: {
    party: 'model',
    defaultMessage: 'The model did not produce data that matches the schema.',
  },
  ABORTED: { party: 'caller', defaultMessage: 'The operation was canceled.' },
} as const satisfies Record<string, { party: ErrorParty; defaultMessage: string }>;

/** A code from {@link AGENT_ERRORS}. */
export type AgentErrorCode = keyof typeof AGENT_ERRORS;

/**
 * The one error class of `@switchboard/agent`. `code` says what happened, `party` who must act;
 * `details` carries structured facts for logs (never shown to a model).
 *
 * @example
 * throw new AgentError('DUPLICATE_TOOL', { message: 'Tool "get_order" is registered twice.' });
 */
export class AgentError extends Error {
  readonly code: AgentErrorCode;
  readonly party: ErrorParty;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    code: AgentErrorCode,
    {
      message,
      cause,
      details,
    }: { message?: string; cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message ?? AGENT_ERRORS[code].defaultMessage, cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.code = code;
    this.party = AGENT_ERRORS[code].party;
    this.details = details;
  }
}

/** True when `error` is an {@link AgentError}, optionally with the given code. */
export function isAgentError(error: unknown, code?: AgentErrorCode): error is AgentError {
  return error instanceof AgentError && (code === undefined || error.code === code);
}
