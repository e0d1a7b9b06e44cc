import { callerOf, describeCaller, type EvalCase, userTexts } from '../case/eval-case.ts';
import { type CustomerFootprint, foreignData } from './cross-customer.ts';
import type { EvalTarget } from './eval-target.ts';

/** Options of {@link deploymentTarget}. */
export interface DeploymentTargetOptions {
  /** The supervisor's base URL. */
  url: string;
  /**
   * A bearer token of each customer the cases ask as, by customer id (`{ C001: '…', C002: '…' }`):
   * a case is sent with its customer's token.
   */
  tokens: Readonly<Record<string, string>>;
  /** An operator's token (`SWITCHBOARD_ADMIN_TOKEN`), for approve and deny turns and `as: operator` cases. */
  adminToken: string;
  /**
   * The deployment's customers and their data (when it serves a known data set, such as the bundled
   * shop): no answer may show a customer other than the case's. Default: none, nothing is checked.
   */
  customers?: readonly CustomerFootprint[];
}

/** The customers of `cases` that `tokens` has no token for, sorted (what a caller must still give). */
export function customersWithoutToken({
  cases,
  tokens,
}: {
  cases: readonly Pick<EvalCase, 'customer' | 'as'>[];
  tokens: Readonly<Record<string, string>>;
}): string[] {
  const missing = new Set<string>();
  for (const evalCase of cases) {
    const caller = callerOf(evalCase);
    if (caller.kind === 'customer' && !tokens[caller.id]) missing.add(caller.id);
  }
  return [...missing].sort();
}

/**
 * Runs cases against a running deployment, as its customers and an operator would: each case with
 * the token of the customer it names (or the operator's). Only the conversation is observable:
 * faults cannot be injected (cases with faults are skipped), and tool calls, steps, tokens and
 * dangerous runs cannot be seen (those expectations are reported as not observable). `noSecrets`
 * checks the tokens the runner holds; other customers' data is looked for in the answers only.
 */
export function deploymentTarget({
  url,
  tokens,
  adminToken,
  customers,
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
        foreign: foreignData({ customers, caller, said: userTexts(evalCase) }),
        secrets: [
          ...Object.entries(tokens).map(([id, value]) => ({ label: `customer token (${id})`, value })),
          { label: 'admin token', value: adminToken },
        ],
        collect: () => ({}),
        stop: async () => {},
      };
    },
    close: async () => {},
  };
}
