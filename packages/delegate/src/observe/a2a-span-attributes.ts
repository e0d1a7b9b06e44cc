import type { Span } from '@opentelemetry/api';
import { errorType as bindingErrorType, recordFailure } from '@switchboard/a2a-bullmq/observe';

export {
  messageAttributes,
  requestAttributes,
  resultAttributes,
  streamEventAttributes,
} from '@switchboard/a2a-bullmq/observe';

/**
 * A low-cardinality name for an error: a Switchboard error's code (`REDIS_UNAVAILABLE`, from any
 * package that marks its errors with `Symbol.for('@switchboard/error')`), else what the binding names
 * it (the A2A error's class, the queue binding's code, the error's own name or `_OTHER`). The binding
 * cannot know the other packages' errors, so this one step stays here.
 */
export function errorType(error: unknown): string {
  return switchboardErrorCode(error) ?? bindingErrorType(error);
}

/** The code of an error one of Switchboard's packages raised, else undefined. */
function switchboardErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !(Symbol.for('@switchboard/error') in error))
    return undefined;
  const { code } = error as { code?: unknown };
  return typeof code === 'string' ? code : undefined;
}

/** Marks a span of an A2A call failed: `<method> failed: <error type>.` */
export function recordCallFailure(span: Span, method: string, error: unknown): void {
  const type = errorType(error);
  recordFailure(span, type, `${method} failed: ${type}.`);
}
