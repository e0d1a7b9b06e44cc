import { z } from 'zod';
import { LEGACY_USER_KIND } from './legacy-kind.ts';

/** The kinds of caller, in the order they are documented. */
const KINDS = ['user', 'operator', 'service'] as const;

/**
 * What kind of caller a principal is. It comes from how the caller authenticated (which token list,
 * which identity provider claim, which service key), never from a name it chose.
 * - `user`: an end user; sees and changes only their own data.
 * - `operator`: staff; acts on any user's data and decides approvals on the board.
 * - `service`: another Switchboard service acting on its own account (no end user behind it).
 *
 * Records and assertions written before 0.3 name end users with the older kind word; it reads as
 * `user` (see docs/migration.md).
 */
export const PrincipalKind = z.preprocess(
  (value) => (value === LEGACY_USER_KIND ? 'user' : value),
  z.enum(KINDS, { error: `must be one of ${KINDS.join(', ')}` }),
);
export type PrincipalKind = z.infer<typeof PrincipalKind>;

/**
 * Who is asking: the identity every request carries to every agent and every tool. Tools read it
 * from `ToolContext.principal`, and the data they guard decides on it (object-level access lives in
 * the store or the tool, never in a prompt).
 */
export const Principal = z.object({
  /** The caller's id within its kind: a user id (`u-1024`, `ada@example.com`), an operator's name, a service's name. */
  id: z.string().min(1).max(200),
  kind: PrincipalKind,
  /** What the caller may do beyond its kind, e.g. `refunds:approve` (from the identity provider). */
  roles: z.array(z.string().min(1).max(100)).max(50).default([]),
  /**
   * The services the request passed through on its way here, first hop first (`['supervisor']`
   * when the supervisor delegated a user's request to a worker). Empty for a direct caller.
   */
  via: z.array(z.string().min(1).max(100)).max(10).default([]),
});
export type Principal = z.infer<typeof Principal>;

/**
 * The principal's scope key, `kind:id` (e.g. `user:u-1024`): what tasks, conversations and
 * intent records are owned by. Two principals of different kinds never share one.
 */
export function principalKey(principal: Pick<Principal, 'kind' | 'id'>): string {
  return `${principal.kind}:${principal.id}`;
}

/**
 * The scope key a user's records were owned by before 0.3, when end users had the older kind word
 * (`user:u-1024` → its 0.2 form); undefined for any other key. Stores compare a stored owner with
 * both, so records written before the rename keep loading.
 */
export function legacyPrincipalKey(key: string): string | undefined {
  return key.startsWith('user:') ? `${LEGACY_USER_KIND}:${key.slice('user:'.length)}` : undefined;
}

/** How a principal reads in logs and audits: `user u-1024 (via supervisor)`. */
export function describePrincipal(principal: Principal): string {
  const via = principal.via.length > 0 ? ` (via ${principal.via.join(', ')})` : '';
  return `${principal.kind} ${principal.id}${via}`;
}
