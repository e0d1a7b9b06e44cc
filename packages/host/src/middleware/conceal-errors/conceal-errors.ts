import { randomBytes } from 'node:crypto';
import { A2AError } from '@a2a-js/sdk/errors';
import { type A2ARequestHandler, type ServerCallContext, STATE_HEADERS_KEY } from '@a2a-js/sdk/server';
import { context, propagation, trace } from '@opentelemetry/api';
import type { Logger } from '@switchboard/agent';
import { callVariable } from '@switchboard/protocol';
import { HostError, type HostErrorCode } from '../../errors.ts';
import { decorateHandler } from '../decorate-handler.ts';

/** Our own errors whose message is written for the caller, so they reach it as they are. */
const SAID_TO_CALLERS: ReadonlySet<HostErrorCode> = new Set(['MESSAGE_IN_FLIGHT']);

/**
 * What a caller gets instead of an error nobody expected: a generic message with the id that the
 * log line of the real error carries.
 */
export class InternalServerError extends Error {
  /** The id of the log line that holds the real error, e.g. `err_7f3a09c2b1d4`. */
  readonly errorId: string;

  constructor(errorId: string) {
    super(`Internal error (id ${errorId}); tell the operator this id.`);
    this.name = new.target.name;
    this.errorId = errorId;
  }
}

/** A fresh error id: `err_` and 12 hex digits. */
export function newErrorId(): string {
  return `err_${randomBytes(6).toString('hex')}`;
}

/**
 * The trace a failure belongs to: the active span's, else the caller's `traceparent` when the call
 * carries one (the SERVER span continues it); undefined when neither is known.
 */
export function traceIdOf(call?: ServerCallContext): string | undefined {
  const active = trace.getActiveSpan()?.spanContext();
  if (active && trace.isSpanContextValid(active)) return active.traceId;
  const headers = call ? callVariable(call, STATE_HEADERS_KEY) : undefined;
  if (!headers || typeof headers !== 'object') return undefined;
  const remote = trace.getSpanContext(propagation.extract(context.active(), headers));
  return remote && trace.isSpanContextValid(remote) ? remote.traceId : undefined;
}

/** Whether an error's message was written for the caller: A2A errors, and ours that are. */
export function isSaidToCallers(error: unknown): boolean {
  return error instanceof A2AError || (error instanceof HostError && SAID_TO_CALLERS.has(error.code));
}

/**
 * Turns an error into what its caller may read: errors written for callers (A2A protocol errors such
 * as task not found, invalid params and the request limits; see {@link isSaidToCallers}) as they are,
 * any other error into an {@link InternalServerError}, after logging it in full with the error id and
 * trace id.
 */
export function concealError(
  error: unknown,
  { logger, method, call }: { logger: Pick<Logger, 'error'>; method: string; call?: ServerCallContext },
): unknown {
  if (isSaidToCallers(error) || error instanceof InternalServerError) return error;
  const errorId = newErrorId();
  const traceId = traceIdOf(call);
  logger.error(
    { err: error, errorId, method, ...(traceId ? { traceId } : {}) },
    'A2A request failed with an unexpected error',
  );
  return new InternalServerError(errorId);
}

/**
 * Wraps a request handler so an unexpected error (a bug, a dependency down, "Maximum call stack size
 * exceeded") never reaches a caller verbatim: it is logged in full with an error id and the trace id,
 * and the caller reads `Internal error (id err_…); tell the operator this id.` over every binding
 * (JSON-RPC, REST, the queue). A2A errors raised on purpose keep their messages. `hostAgent`
 * applies it outermost.
 *
 * @example
 * const requestHandler = concealInternalErrors({ handler: hosted.requestHandler, logger });
 */
export function concealInternalErrors({
  handler,
  logger,
}: {
  handler: A2ARequestHandler;
  logger: Pick<Logger, 'error'>;
}): A2ARequestHandler {
  return decorateHandler(handler, {
    unary: async (method, _params, call, run) => {
      try {
        return await run();
      } catch (error) {
        throw concealError(error, { logger, method, call });
      }
    },
    stream: async function* (method, _params, call, open) {
      try {
        yield* open();
      } catch (error) {
        throw concealError(error, { logger, method, call });
      }
    },
  });
}
