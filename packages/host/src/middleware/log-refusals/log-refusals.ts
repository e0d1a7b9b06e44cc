import { A2AError } from '@a2a-js/sdk/errors';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { type Logger, principalKey } from '@switchboard/agent';
import { principalOf } from '@switchboard/identity';
import { InternalServerError } from '../conceal-errors/conceal-errors.ts';
import { decorateHandler } from '../decorate-handler.ts';

/** How long repeats of one refusal from one caller are counted instead of logged (default 60 s). */
export const DEFAULT_REFUSAL_SUMMARY_MS = 60_000;

/** Callers × reasons counted at once; past it, the rest are counted under one key (`other callers`). */
const MAX_COUNTED = 1_000;

/** The longest refusal message written (it can quote the caller's own ids). */
const MAX_MESSAGE_CHARS = 200;

/** Errors a host layer has already logged: what the SDK prints of them again is noise. */
const logged = new WeakSet<object>();

/**
 * Whether a host layer already logged this error: a refusal {@link logRefusals} wrote, or an
 * unexpected error `concealInternalErrors` logged in full (its {@link InternalServerError}). The
 * A2A SDK prints each error of a stream again with `console.error`, stack and the caller's ids
 * raw; a service's console route drops those (see `routeConsole` in `@switchboard/telemetry`).
 */
export function wasLoggedByHost(error: unknown): boolean {
  return (
    error instanceof InternalServerError || (typeof error === 'object' && error !== null && logged.has(error))
  );
}

/** Options of {@link logRefusals}. */
export interface LogRefusalsOptions {
  /** The handler whose refusals are logged (the outer layers of a binding). */
  handler: A2ARequestHandler;
  logger: Pick<Logger, 'info'>;
  /** See {@link DEFAULT_REFUSAL_SUMMARY_MS}. */
  summaryMs?: number;
}

/** A handler that logs its refusals, and `close()`, which writes the sums still counted. */
export interface RefusalLoggingHandler {
  handler: A2ARequestHandler;
  close(): void;
}

interface Counted {
  since: number;
  repeats: number;
  caller: string;
  reason: string;
}

/**
 * Logs each refusal (an A2A error said to the caller: task not found, a request limit, invalid
 * params) as one structured line without a stack, `request refused` with the caller, method and
 * reason; repeats of the same reason from the same caller within `summaryMs` are counted and written
 * as one line, `N more refusals of <reason> from <caller> in the last 60 s`. A refusal costs its
 * sender nothing, so it must cost the log little too. Unexpected errors pass through untouched, for
 * `concealInternalErrors` to log in full.
 *
 * @example
 * const { handler, close } = logRefusals({ handler: limited, logger });
 */
export function logRefusals({
  handler,
  logger,
  summaryMs = DEFAULT_REFUSAL_SUMMARY_MS,
}: LogRefusalsOptions): RefusalLoggingHandler {
  const counted = new Map<string, Counted>();

  const writeSum = (entry: Counted, now: number) => {
    if (entry.repeats === 0) return;
    const seconds = Math.max(1, Math.round((now - entry.since) / 1000));
    logger.info(
      { caller: entry.caller, reason: entry.reason, refused: entry.repeats },
      `${entry.repeats} more refusals of ${entry.reason} from ${entry.caller} in the last ${seconds} s`,
    );
  };
  const flush = (all: boolean) => {
    const now = Date.now();
    for (const [key, entry] of counted) {
      if (!all && now - entry.since < summaryMs) continue;
      writeSum(entry, now);
      counted.delete(key);
    }
  };
  const timer = setInterval(() => flush(false), summaryMs);
  timer.unref();

  const refused = (error: unknown, method: string, call: ServerCallContext) => {
    if (!(error instanceof A2AError) || error instanceof InternalServerError) return;
    logged.add(error);
    const principal = principalOf(call.user);
    const caller = principal ? principalKey(principal) : 'anonymous';
    const reason = error.name.replace(/Error$/, '') || 'A2AError';
    const own = `${caller}\u0000${reason}`;
    const counter = counted.has(own) || counted.size < MAX_COUNTED ? caller : 'other callers';
    const key = `${counter}\u0000${reason}`;
    const now = Date.now();
    const entry = counted.get(key);
    if (entry && now - entry.since < summaryMs) {
      entry.repeats += 1;
      return;
    }
    if (entry) writeSum(entry, now);
    counted.set(key, { since: now, repeats: 0, caller: counter, reason });
    logger.info(
      {
        caller,
        method,
        reason,
        ...(error.reason ? { code: error.reason } : {}),
        error: error.message.slice(0, MAX_MESSAGE_CHARS),
      },
      'request refused',
    );
  };

  return {
    handler: decorateHandler(handler, {
      unary: async (method, _params, call, run) => {
        try {
          return await run();
        } catch (error) {
          refused(error, method, call);
          throw error;
        }
      },
      stream: async function* (method, _params, call, open) {
        try {
          yield* open();
        } catch (error) {
          refused(error, method, call);
          throw error;
        }
      },
    }),
    close: () => {
      clearInterval(timer);
      flush(true);
    },
  };
}
