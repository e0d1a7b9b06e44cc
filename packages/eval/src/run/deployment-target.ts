import type { EvalCase } from '../case/eval-case.ts';
import type { EvalTarget } from './eval-target.ts';

/** Options of {@link deploymentTarget}. */
export interface DeploymentTargetOptions {
  /** The supervisor's base URL. */
  url: string;
  /** A user's bearer token (`SWITCHBOARD_TOKEN`). */
  token: string;
  /** An operator's token (`SWITCHBOARD_ADMIN_TOKEN`), for approve and deny turns. */
  adminToken: string;
}

/**
 * Runs cases against a running deployment, as a user and an operator would. Only the conversation
 * is observable: faults cannot be injected (cases with faults are skipped), and tool calls, steps,
 * tokens and dangerous runs cannot be seen (those expectations are reported as not observable).
 * `noSecrets` checks the two tokens the runner holds.
 */
export function deploymentTarget({ url, token, adminToken }: DeploymentTargetOptions): EvalTarget {
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
    open: async () => ({
      url: base,
      token,
      adminToken,
      secrets: [
        { label: 'user token', value: token },
        { label: 'admin token', value: adminToken },
      ],
      collect: () => ({}),
      stop: async () => {},
    }),
    close: async () => {},
  };
}
