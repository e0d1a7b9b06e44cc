import type { Logger } from '@switchboard/agent';
import { formatLogLine, type ServiceLogLine } from '@switchboard/cli';

/**
 * The services' log lines, kept in memory instead of printed: the demo shows only the conversation,
 * and the last lines when something fails.
 */
export class ServiceLogs {
  readonly #lines: string[] = [];

  readonly keep: number;

  constructor(keep = 500) {
    this.keep = keep;
  }

  /** Takes one line of a service process (for `bootSystem`'s `onLog`). */
  readonly onLog = (line: ServiceLogLine): void => {
    this.#push(formatLogLine(line));
  };

  /** A logger for the in-process system and the demo itself, with the same line format. */
  logger(): Logger {
    const write = (level: string) => (fields: Record<string, unknown>, message: string) => {
      const err = fields.err instanceof Error ? `  error=${fields.err.message}` : '';
      this.#push(`[system    ] ${level.padEnd(5)} ${message}${err}`);
    };
    return { debug: () => {}, info: write('info'), warn: write('warn'), error: write('error') };
  }

  /** The last `count` lines, oldest first. */
  last(count: number): string[] {
    return this.#lines.slice(-count);
  }

  #push(line: string): void {
    this.#lines.push(line);
    if (this.#lines.length > this.keep) this.#lines.shift();
  }
}
