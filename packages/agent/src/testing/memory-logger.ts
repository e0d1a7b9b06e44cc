import type { Logger } from '../observe/logger.ts';

/** A log line as {@link MemoryLogger} kept it. */
export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields: Record<string, unknown>;
}

/** A logger that keeps every line in memory, for tests. */
export class MemoryLogger implements Logger {
  readonly entries: LogEntry[] = [];
  debug(fields: Record<string, unknown>, message: string): void {
    this.entries.push({ level: 'debug', message, fields });
  }
  info(fields: Record<string, unknown>, message: string): void {
    this.entries.push({ level: 'info', message, fields });
  }
  warn(fields: Record<string, unknown>, message: string): void {
    this.entries.push({ level: 'warn', message, fields });
  }
  error(fields: Record<string, unknown>, message: string): void {
    this.entries.push({ level: 'error', message, fields });
  }
}
