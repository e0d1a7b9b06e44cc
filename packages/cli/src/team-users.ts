import type { TeamAccess } from '@switchboard/team';

/**
 * Every user's token of a running team, by user id. `TeamAccess` (`@switchboard/team`) still names
 * them by the platform's 0.2 word for end users until that contract is renamed; this is the one
 * place the CLI reads that field, so the rename there changes one line here.
 */
export function teamUserTokens(access: Pick<TeamAccess, 'customers'>): Readonly<Record<string, string>> {
  return access.customers;
}
