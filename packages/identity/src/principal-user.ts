import type { User } from '@a2a-js/sdk/server';
import { Principal, principalKey } from '@switchboard/agent';

/**
 * A caller this server authenticated, as the A2A SDK sees it. Its `userName` is the principal's
 * scope key (`user:u-1024`, `operator:ada`), so the SDK's per-user task scope keeps two kinds of
 * caller apart even when their ids are the same.
 */
export class PrincipalUser implements User {
  readonly isAuthenticated = true;
  readonly principal: Principal;

  constructor(principal: Principal) {
    this.principal = Principal.parse(principal);
  }

  get userName(): string {
    return principalKey(this.principal);
  }
}

/** The principal of an SDK user, or undefined for an unauthenticated one (or one we did not make). */
export function principalOf(user: User | undefined): Principal | undefined {
  return user instanceof PrincipalUser ? user.principal : undefined;
}
