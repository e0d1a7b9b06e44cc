import type { Span } from '@opentelemetry/api';
import { errorType as bindingErrorType, recordFailure } from '@switchboard/a2a-bullmq/observe';
import { A2aError } from '../errors.ts';

export {
  messageAttributes,
  requestAttributes,
  resultAttributes,
  streamEventAttributes,
} from '@switchboard/a2a-bullmq/observe';

/**
 * A low-cardinality name for an error: hosting's `A2aError` code (`REDIS_UNAVAILABLE`), else what
 * the binding names it (the A2A error's class, the queue binding's code, the error's own name or
 * `_OTHER`). The binding cannot know hosting's errors, so this one step stays here.
 */
export function errorType(error: unknown): string {
  return error instanceof A2aError ? error.code : bindingErrorType(error);
}

/** Marks a span of an A2A call failed: `<method> failed: <error type>.` */
export function recordCallFailure(span: Span, method: string, error: unknown): void {
  const type = errorType(error);
  recordFailure(span, type, `${method} failed: ${type}.`);
}
