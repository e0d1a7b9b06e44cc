import type { ServerCallContext } from '@a2a-js/sdk/server';
import { Principal } from '@switchboard/agent';

/**
 * A `ServerCallContext.state` key set only by the admin routes when they deliver a decision an
 * operator took on the approval board to its waiting task: the operator who took it. Callers cannot
 * set it (only code that builds a call context in process can), so a decision that arrives with it
 * was taken on the board.
 */
export const DECIDED_ON_BOARD = 'switchboard.a2a.decidedOnBoard';

/** Marks a call context as the board's delivery of a decision `operator` took. */
export function markDecidedOnBoard(context: ServerCallContext, operator: Principal): void {
  context.state.set(DECIDED_ON_BOARD, Principal.parse(operator));
}

/** The operator whose board decision this call delivers, or undefined for any other call. */
export function boardDeciderOf(context: ServerCallContext): Principal | undefined {
  const operator = Principal.safeParse(context.state.get(DECIDED_ON_BOARD)).data;
  return operator?.kind === 'operator' ? operator : undefined;
}
