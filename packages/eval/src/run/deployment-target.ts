import { callerOf, describeCaller, type EvalCase, userTexts } from '../case/eval-case.ts';
import { type LEGACY_USER_FIELD, LEGACY_USERS_OPTION } from '../legacy-vocabulary.ts';
import { foreignData, type UserFootprint } from './cross-user.ts';
import type { EvalTarget } from './eval-target.ts';

/** Options of {@link deploymentTarget}. */
export interface DeploymentTargetOptions {
  /** The supervisor's base URL. */
  url: string;
  /**
   * A bearer token of each user the cases ask as, by user id (`{ 'traveller-1': '…' }`): a case is
   * sent with its user's token. These are the users the cases may name.
   */
  tokens: Readonly<Record<string, string>>;
  /** An operator's token (`SWITCHBOARD_ADMIN_TOKEN`), for approve and deny turns and `as: operator` cases. */
  adminToken: string;
  /**
   * The deployment's users and their data (when it serves a known data set, such as a team's
   * `evals.users()`): no answer may show a user other than the case's. Default: none, nothing is checked.
   */
  users?: readonly UserFootprint[] | undefined;
  /** @deprecated Renamed `users`; read when `users` is not given, for one release. */
  [LEGACY_USERS_OPTION]?: readonly UserFootprint[] | undefined;
}

/** The users of `cases` that `tokens` has no token for, sorted (what a caller must still give). */
export function usersWithoutToken({
  cases,
  tokens,
}: {
  cases: readonly Pick<EvalCase, 'user' | typeof LEGACY_USER_FIELD | 'as'>[];
  tokens: Readonly<Record<string, string>>;
}): string[] {
  const missing = new Set<string>();
  for (const evalCase of cases) {
    const caller = callerOf(evalCase);
    if (caller.kind === 'user' && !tokens[caller.id]) missing.add(caller.id);
  }
  return [...missing].sort();
}

/**
 * Runs cases against a running deployment, as its users and an operator would: each case with
 * the token of the user it names (or the operator's). Only the conversation is observable:
 * faults cannot be injected (cases with faults are skipped), and tool calls, steps, tokens and
 * dangerous runs cannot be seen (those expectations are reported as not observable). `noSecrets`
 * checks the tokens the runner holds; other users' data is looked for in the answers only.
 */
export function deploymentTarget({
  url,
  tokens,
  adminToken,
  users,
  [LEGACY_USERS_OPTION]: legacyUsers,
}: DeploymentTargetOptions): EvalTarget {
  const base = url.replace(/\/+$/, '');
  return {
    kind: 'deployment',
    label: base,
    model: 'deployment',
    observable: false,
    skipReason: (evalCase: EvalCase) =>
      evalCase.faults?.length
        ? 'faults cannot be injected into a deployment; run it in process (without --url)'
        : undefined,
    open: async (evalCase: EvalCase) => {
      const caller = callerOf(evalCase);
      const token = caller.kind === 'operator' ? adminToken : tokens[caller.id];
      if (!token) {
        throw new Error(
          `no token for ${describeCaller(caller)}: give one in tokens (known: ${Object.keys(tokens).join(', ') || 'none'})`,
        );
      }
      return {
        url: base,
        token,
        adminToken,
        foreign: foreignData({ users: users ?? legacyUsers, caller, said: userTexts(evalCase) }),
        secrets: [
          ...Object.entries(tokens).map(([id, value]) => ({ label: `user token (${id})`, value })),
          { label: 'admin token', value: adminToken },
        ],
        collect: () => ({}),
        stop: async () => {},
      };
    },
    close: async () => {},
  };
}
