import { EXIT, type ExitCode, type Output } from './io/output.ts';

/** Every error code of the `switchboard` command, with its default message and exit code. */
export const CLI_ERRORS = {
  MISSING_SETTING: { exit: EXIT.usage, message: 'A required setting is missing.' },
  INVALID_SETTING: { exit: EXIT.usage, message: 'A setting is not valid.' },
  INVALID_DEV_FILE: { exit: EXIT.usage, message: 'The .switchboard/dev.json file is not valid.' },
  UNAUTHORIZED: { exit: EXIT.usage, message: 'The server refused the token.' },
  UNREACHABLE: { exit: EXIT.problems, message: 'The server could not be reached.' },
  NOT_AN_AGENT: { exit: EXIT.problems, message: 'No agent card was found at the URL.' },
  TASK_NOT_FOUND: { exit: EXIT.problems, message: 'There is no such task.' },
  TASK_NOT_CANCELABLE: { exit: EXIT.problems, message: 'The task cannot be canceled.' },
  REFUSED: { exit: EXIT.problems, message: 'The server refused the request.' },
  BAD_REPLY: { exit: EXIT.problems, message: 'The server’s reply could not be read.' },
  SERVICE_EXITED: { exit: EXIT.problems, message: 'A service of the system exited before it was ready.' },
  SERVICE_NOT_READY: { exit: EXIT.problems, message: 'A service of the system was not ready in time.' },
  NO_TEAM: { exit: EXIT.usage, message: 'No team was found to run.' },
} as const satisfies Record<string, { exit: ExitCode; message: string }>;

/** A code from {@link CLI_ERRORS}. */
export type CliErrorCode = keyof typeof CLI_ERRORS;

/**
 * A failure the user can act on: its message says what was wrong and what to do, and its code
 * decides the exit code. Commands print the message (never a stack trace) and exit with `exit`.
 */
export class CliError extends Error {
  readonly code: CliErrorCode;

  constructor(code: CliErrorCode, { message, cause }: { message?: string; cause?: unknown } = {}) {
    super(message ?? CLI_ERRORS[code].message, cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.code = code;
  }

  /** The exit code of the command that failed this way. */
  get exit(): ExitCode {
    return CLI_ERRORS[this.code].exit;
  }
}

/**
 * Reports a failure on stderr and returns the exit code: a {@link CliError}'s own message and code,
 * anything else as an unexpected failure (exit 1), by message only.
 */
export function reportFailure({ error, output }: { error: unknown; output: Output }): ExitCode {
  if (error instanceof CliError) {
    output.err(error.message);
    return error.exit;
  }
  output.err(`switchboard: ${error instanceof Error ? error.message : String(error)}`);
  return EXIT.problems;
}

/** The innermost message of an error chain, e.g. `connect ECONNREFUSED 127.0.0.1:8080` of `fetch failed`. */
export function rootMessage(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  if (current instanceof AggregateError && current.errors[0] instanceof Error)
    return current.errors[0].message;
  return current instanceof Error ? current.message : String(current);
}
