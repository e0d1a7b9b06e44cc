import { z } from 'zod';

/**
 * What kind of caller a principal is. It comes from how the caller authenticated (which token list,
 * which identity provider claim, which service key), never from a name it chose.
 * - `customer`: an end user; sees and changes only their own data.
 * - `operator`: staff; acts on any customer's data and decides approvals on the board.
 * - `service`: another Switchboard service acting on its own account (no end user behind it).
 */
export const PrincipalKind = z.enum(['customer', 'operator', 'service']);
export type PrincipalKind = z.infer<typeof PrincipalKind>;

/**
 * Who is asking: the identity every request carries to every agent and every tool. Tools read it
 * from `ToolContext.principal`, and the data they guard decides on it (object-level access lives in
 * the store or the tool, never in a prompt).
 */
export const Principal = z.object({
  /** The caller's id within its kind: a customer id (`C001`), an operator's name, a service's name. */
  id: z.string().min(1).max(200),
  kind: PrincipalKind,
  /** What the caller may do beyond its kind, e.g. `refunds:approve` (from the identity provider). */
  roles: z.array(z.string().min(1).max(100)).max(50).default([]),
  /**
   * The services the request passed through on its way here, first hop first (`['supervisor']`
   * when the supervisor delegated a customer's request to a worker). Empty for a direct caller.
   */
  via: z.array(z.string().min(1).max(100)).max(10).default([]),
});
export type Principal = z.infer<typeof Principal>;

/**
 * The principal's scope key, `kind:id` (e.g. `customer:C001`): what tasks, conversations and
 * intent records are owned by. Two principals of different kinds never share one.
 */
export function principalKey(principal: Pick<Principal, 'kind' | 'id'>): string {
  return `${principal.kind}:${principal.id}`;
}

/** How a principal reads in logs and audits: `customer C001 (via supervisor)`. */
export function describePrincipal(principal: Principal): string {
  const via = principal.via.length > 0 ? ` (via ${principal.via.join(', ')})` : '';
  return `${principal.kind} ${principal.id}${via}`;
}
