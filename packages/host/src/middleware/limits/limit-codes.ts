import type { ErrorDetail } from '@a2a-js/sdk/errors';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { decorateHandler } from '../decorate-handler.ts';
import { JSON_RPC_SERVER_ERROR, TooManyRequestsError } from './limit-errors.ts';

/**
 * A limit refusal as an A2A v0.3 caller gets it. The SDK's v0.3 layer answers an error it has no
 * code for with -32603 (internal error: "our fault, do not retry") and drops its `ErrorInfo`; it
 * keeps the code and data of an error that carries its own JSON-RPC envelope. This one carries the
 * code a v1.0 caller gets (-32000) and the `ErrorInfo`, so HTTP answers both with 429 and
 * `Retry-After` alike.
 */
export class LegacyTooManyRequestsError extends TooManyRequestsError {
  readonly transport = 'jsonrpc';
  readonly envelopeCode = JSON_RPC_SERVER_ERROR;
  readonly data: ErrorDetail[];

  constructor(refusal: TooManyRequestsError) {
    super({ message: refusal.message, limit: refusal.limit, retryAfterMs: refusal.retryAfterMs });
    // The refusal's own name in logs and spans, whichever protocol version it was answered in.
    this.name = 'TooManyRequestsError';
    this.data = [this.toErrorInfo()];
  }
}

const isLegacy = (call: ServerCallContext): boolean => call.requestedVersion.startsWith('0.');

function forCaller(error: unknown, call: ServerCallContext): unknown {
  return error instanceof TooManyRequestsError &&
    !(error instanceof LegacyTooManyRequestsError) &&
    isLegacy(call)
    ? new LegacyTooManyRequestsError(error)
    : error;
}

/** Answers the limit refusals of `handler` to v0.3 callers with the v1.0 code (see above). */
export function legacyLimitCodes(handler: A2ARequestHandler): A2ARequestHandler {
  return decorateHandler(handler, {
    unary: async (_method, _params, call, run) => {
      try {
        return await run();
      } catch (error) {
        throw forCaller(error, call);
      }
    },
    stream: async function* (_method, _params, call, open) {
      try {
        yield* open();
      } catch (error) {
        throw forCaller(error, call);
      }
    },
  });
}
