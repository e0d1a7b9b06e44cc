import { type OwnerResolver, resolveUserScope, type ServerCallContext } from '@a2a-js/sdk/server';
import { callVariable } from '@switchboard/protocol';

/**
 * A `ServerCallContext.state` key set by trusted server code (the admin routes) to act on a task
 * in its owner's scope, e.g. to deliver an operator's decision to a user's task.
 */
export const ACTING_FOR = 'switchboard.a2a.actingFor';

declare module '@switchboard/protocol' {
  interface CallVariables {
    /** The task owner's scope trusted server code acts in (see {@link ACTING_FOR}). */
    [ACTING_FOR]: string;
  }
}

/**
 * An owner resolver that honours {@link ACTING_FOR} and otherwise scopes tasks as `fallback` does
 * (default: the SDK's per-user scope). Callers cannot set it: only code that builds a call context
 * in process can.
 *
 * @example
 * createAgentHandler({ agent, model, card, ownerResolver: actingForOwner() });
 */
export function actingForOwner(fallback: OwnerResolver = resolveUserScope): OwnerResolver {
  return (context: ServerCallContext) => {
    return callVariable(context, ACTING_FOR) ?? fallback(context);
  };
}
