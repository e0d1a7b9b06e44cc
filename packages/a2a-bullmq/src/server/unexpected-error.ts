import { randomBytes } from 'node:crypto';
import { trace } from '@opentelemetry/api';
import type { QueueLogger } from '../logger.ts';

/**
 * Logs an error that no caller should read verbatim (its message may tell internals) in full, with a
 * fresh error id and the active trace id, and returns what the caller reads instead:
 * `Internal error (id err_7f3a09c2b1d4); tell the operator this id.`
 */
export function reportUnexpectedError({
  error,
  logger,
  fields = {},
}: {
  error: unknown;
  logger: QueueLogger;
  fields?: Record<string, unknown>;
}): string {
  const errorId = `err_${randomBytes(6).toString('hex')}`;
  const span = trace.getActiveSpan()?.spanContext();
  const traceId = span && trace.isSpanContextValid(span) ? span.traceId : undefined;
  logger.error(
    { ...fields, err: error, errorId, ...(traceId ? { traceId } : {}) },
    'queue request failed with an unexpected error',
  );
  return `Internal error (id ${errorId}); tell the operator this id.`;
}
