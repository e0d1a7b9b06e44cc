/** Where a command writes: stdout for results, stderr for diagnostics. */
export interface Output {
  out(line: string): void;
  err(line: string): void;
}

/** The process's own streams. */
export const processOutput: Output = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** Exit codes of every command. */
export const EXIT = {
  ok: 0,
  /** The command ran and found problems (invalid card, failed verification, breaking change). */
  problems: 1,
  /** The command could not run: bad arguments, unreadable input. */
  usage: 2,
} as const;

/** Pads a column for aligned terminal output. */
export const column = (text: string, width: number) => text.padEnd(width);
