import type { ServerCallContext } from '@a2a-js/sdk/server';
import { Principal } from '@switchboard/agent';
import { callVariable, DECIDED_ON_BOARD, setCallVariable } from './call-state.ts';

/** Marks a call context as the board's delivery of a decision `operator` took. */
export function markDecidedOnBoard(context: ServerCallContext, operator: Principal): void {
  setCallVariable(context, DECIDED_ON_BOARD, Principal.parse(operator));
}

/** The operator whose board decision this call delivers, or undefined for any other call. */
export function boardDeciderOf(context: ServerCallContext): Principal | undefined {
  // Parsed, not trusted: it is a principal only when the board's delivery put one there.
  const operator = Principal.safeParse(callVariable(context, DECIDED_ON_BOARD)).data;
  return operator?.kind === 'operator' ? operator : undefined;
}
