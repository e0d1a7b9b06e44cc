import type { AuditRecord, AuditSink, Logger } from '@switchboard/agent';

/**
 * Writes every audit record (each tool call, each approval decision: who, when, what) as one
 * structured log line `audit` with the record under `audit`, so it is kept wherever the service's
 * logs go, next to the trace ids of the request.
 */
export class LogAuditSink implements AuditSink {
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  write(record: AuditRecord): void {
    this.#logger.info({ audit: record }, 'audit');
  }
}
