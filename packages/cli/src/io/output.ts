import { inert } from '@switchboard/protocol';

/** Where a command writes: stdout for results, stderr for diagnostics. */
export interface Output {
  out(line: string): void;
  err(line: string): void;
}

/**
 * The process's own streams. Every line is made {@link inert} on the way (its line feeds and tabs
 * kept): whatever a view forgets, no escape sequence or control character reaches the terminal.
 */
export const processOutput: Output = {
  out: (line) => process.stdout.write(`${inert(line, { lines: true })}\n`),
  err: (line) => process.stderr.write(`${inert(line, { lines: true })}\n`),
};

/**
 * Makes a closed stdout end the command quietly with exit code 0, as `git log | head -1` does: the
 * reader has what it wanted, so there is nothing to report. Without it, the next write's EPIPE is an
 * unhandled stream error and Node prints a stack. A closed stderr is ignored the same way; any other
 * stream error is still thrown. Called once by the `switchboard` bin, never at import.
 */
export function endQuietlyOnClosedOutput({
  stdout = process.stdout,
  stderr = process.stderr,
  exit = (code: number) => process.exit(code),
}: {
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
  exit?: (code: number) => void;
} = {}): void {
  const closed = (error: NodeJS.ErrnoException) => error.code === 'EPIPE';
  stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (!closed(error)) throw error;
    exit(EXIT.ok);
  });
  stderr.on('error', (error: NodeJS.ErrnoException) => {
    if (!closed(error)) throw error;
  });
}

/** Exit codes of every command. */
export const EXIT = {
  ok: 0,
  /**
   * The command ran and found problems (invalid card, failed verification, breaking change), or
   * the thing it asked for failed (a failed, rejected or canceled task; a refused decision; an
   * unreachable supervisor).
   */
  problems: 1,
  /** The command could not run: bad arguments, unreadable input, a missing or refused setting. */
  usage: 2,
  /** The task waits for a human: it ended input-required, e.g. on an approval (`switchboard approvals`). */
  waiting: 3,
} as const;

/** An exit code from {@link EXIT}. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Pads a column for aligned terminal output. */
export const column = (text: string, width: number) => text.padEnd(width);
