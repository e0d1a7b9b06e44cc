import type { StreamResponse } from '@a2a-js/sdk';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';

/** The request handler methods that answer once (all but the card and the two streams). */
export type UnaryMethod = Exclude<
  keyof A2ARequestHandler,
  'getAgentCard' | 'sendMessageStream' | 'resubscribe'
>;

/** The request handler methods that answer with a stream. */
export type StreamMethod = 'sendMessageStream' | 'resubscribe';

/** What a decorator does around each call; a hook left out passes the call through. */
export interface HandlerHooks {
  /** Around a call that answers once: `run` calls the wrapped handler. */
  unary?<T>(method: UnaryMethod, params: unknown, call: ServerCallContext, run: () => Promise<T>): Promise<T>;
  /** Around a stream: `open` opens the wrapped handler's stream. */
  stream?(
    method: StreamMethod,
    params: unknown,
    call: ServerCallContext,
    open: () => AsyncGenerator<StreamResponse, void, undefined>,
  ): AsyncGenerator<StreamResponse, void, undefined>;
}

type UnaryFn = (params: unknown, call: ServerCallContext) => Promise<unknown>;
type StreamFn = (params: unknown, call: ServerCallContext) => AsyncGenerator<StreamResponse, void, undefined>;

/**
 * An A2A request handler that runs `hooks` around every call of `inner` (the card excepted), so a
 * decorator (limits, error concealment) writes what it adds once instead of forwarding each method.
 *
 * @example
 * const logged = decorateHandler(handler, {
 *   unary: async (method, _params, _call, run) => { console.log(method); return run(); },
 * });
 */
export function decorateHandler(inner: A2ARequestHandler, hooks: HandlerHooks): A2ARequestHandler {
  const unary = (method: UnaryMethod): UnaryFn => {
    const call = (params: unknown, context: ServerCallContext) =>
      (inner[method] as UnaryFn).call(inner, params, context);
    return (params, context) =>
      hooks.unary ? hooks.unary(method, params, context, () => call(params, context)) : call(params, context);
  };
  const stream = (method: StreamMethod): StreamFn => {
    const open = (params: unknown, context: ServerCallContext) =>
      (inner[method] as StreamFn).call(inner, params, context);
    return (params, context) =>
      hooks.stream
        ? hooks.stream(method, params, context, () => open(params, context))
        : open(params, context);
  };
  const handler = {
    getAgentCard: () => inner.getAgentCard(),
    getAuthenticatedExtendedAgentCard: unary('getAuthenticatedExtendedAgentCard'),
    sendMessage: unary('sendMessage'),
    sendMessageStream: stream('sendMessageStream'),
    getTask: unary('getTask'),
    cancelTask: unary('cancelTask'),
    listTasks: unary('listTasks'),
    resubscribe: stream('resubscribe'),
    createTaskPushNotificationConfig: unary('createTaskPushNotificationConfig'),
    getTaskPushNotificationConfig: unary('getTaskPushNotificationConfig'),
    listTaskPushNotificationConfigs: unary('listTaskPushNotificationConfigs'),
    deleteTaskPushNotificationConfig: unary('deleteTaskPushNotificationConfig'),
  };
  return handler as A2ARequestHandler;
}
