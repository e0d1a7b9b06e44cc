import type { RequestHeaders, ServerCallContext, STATE_HEADERS_KEY } from '@a2a-js/sdk/server';
import type { Principal } from '@switchboard/agent';

/**
 * What rides on a call's `ServerCallContext.state` from one handler layer to the next, by key: the
 * one typed view of it, as Hono types its context variables. A layer that puts something there
 * declares its key by augmenting this interface beside the code that sets it, so every reader gets
 * the type without a cast:
 *
 * @example
 * export const CALLER_GONE_KEY = 'switchboard.callerGone';
 * declare module '@switchboard/protocol' {
 *   interface CallVariables { [CALLER_GONE_KEY]: AbortSignal }
 * }
 * const signal = callVariable(call, CALLER_GONE_KEY); // AbortSignal | undefined
 *
 * Only code that builds a call context in process can set a variable: no caller, over any binding,
 * reaches `state` except through the headers the binding copies there.
 */
export interface CallVariables {
  /** The call's HTTP headers or queued service parameters, as the SDK's bindings copy them. */
  [STATE_HEADERS_KEY]: RequestHeaders;
  /** Set by the admin routes when they deliver a decision an operator took on the approval board. */
  [DECIDED_ON_BOARD]: Principal;
}

/**
 * The key of the operator whose board decision a call delivers (see {@link markDecidedOnBoard}).
 * Callers cannot set it, so a decision that arrives with it was taken on the board.
 */
export const DECIDED_ON_BOARD = 'switchboard.a2a.decidedOnBoard';

/** The variable `key` of a call, as the layer that set it declared it; undefined when unset. */
export function callVariable<K extends keyof CallVariables>(
  call: ServerCallContext,
  key: K,
): CallVariables[K] | undefined {
  // The one cast of call state: the interface above is what each setter promised to put there.
  return call.state.get(key) as CallVariables[K] | undefined;
}

/** Sets the variable `key` of a call, of the type its layer declared. */
export function setCallVariable<K extends keyof CallVariables>(
  call: ServerCallContext,
  key: K,
  value: CallVariables[K],
): void {
  call.state.set(key, value);
}
