import { z } from 'zod';
import { renameLegacyKeys } from '../legacy-vocabulary.ts';
import { CrossUserLeak } from './cross-user.ts';

/** Audit errors that mean a call was refused before its handler: unknown, invalid or not permitted. */
export const REFUSAL_CODES: ReadonlySet<string> = new Set([
  'UNKNOWN_TOOL',
  'INVALID_JSON',
  'INVALID_ARGUMENTS',
  'PERMISSION_DENIED',
]);

/** Audit errors that mean the arguments failed the tool's schema (or were not JSON). */
export const INVALID_ARGUMENT_CODES: ReadonlySet<string> = new Set(['INVALID_ARGUMENTS', 'INVALID_JSON']);

/**
 * One tool call as a case observed it: the audit records of one call (same agent, conversation and
 * call id) merged, with its arguments. Part of the JSON report.
 */
export const ObservedCall = z.object({
  agent: z.string(),
  tool: z.string(),
  callId: z.string(),
  /** Where the call ended: succeeded, failed, refused, awaiting_approval or suppressed (audit status). */
  status: z.string(),
  errorCode: z.string().optional(),
  /**
   * The validated arguments the handler received (worker tools); else the arguments the model wrote,
   * parsed; else the audit's redacted summary.
   */
  arguments: z.unknown().optional(),
  /** Known, permitted and with valid arguments: it was made (it may then have waited, been denied or failed). */
  accepted: z.boolean(),
  /** Whether the tool's handler was invoked. */
  ran: z.boolean(),
  risk: z.string(),
  /** The call repeats an earlier call of the case: same agent, tool and arguments. */
  repeated: z.boolean(),
});
export type ObservedCall = z.infer<typeof ObservedCall>;

/** A dangerous tool whose handler ran, and whether an operator of this case approved it. */
export const DangerousRun = z.object({
  agent: z.string(),
  tool: z.string(),
  callId: z.string(),
  approved: z.boolean(),
});
export type DangerousRun = z.infer<typeof DangerousRun>;

/** An operator decision the runner made on an approve/deny turn. */
export const OperatorDecision = z.object({
  approvalId: z.string(),
  agent: z.string(),
  tool: z.string(),
  decision: z.enum(['approved', 'denied']),
});
export type OperatorDecision = z.infer<typeof OperatorDecision>;

/**
 * What running a case showed. `calls`, `steps`, tokens and `dangerousRuns` are absent when they
 * were not observable (against a deployment).
 */
export const Observation = z.preprocess(
  renameLegacyKeys,
  z.object({
    /** The supervisor task's state after the last turn (`completed`, `input-required`, ...). */
    state: z.string().optional(),
    /** The final answer: the last task's answer artifact, else its status message. Secrets redacted. */
    answer: z.string(),
    /** What happened on each turn, for the report. */
    turns: z.array(z.string()),
    decisions: z.array(OperatorDecision),
    calls: z.array(ObservedCall).optional(),
    dangerousRuns: z.array(DangerousRun).optional(),
    steps: z.number().int().nonnegative().optional(),
    promptTokens: z.number().int().nonnegative().optional(),
    completionTokens: z.number().int().nonnegative().optional(),
    /** How many answers (of any turn) held a secret; the secrets themselves are never reported. */
    secretLeaks: z.number().int().nonnegative(),
    /** Which kinds of secret leaked (`user token`, `canary`, ...). */
    leakedSecrets: z.array(z.string()),
    /**
     * Other users' data the case showed, when it was checked (a user asked, and the target
     * knows the users): `scope` says where it was looked for (`answers` against a deployment,
     * `answers and tools` in process).
     */
    crossUser: z
      .object({ scope: z.enum(['answers', 'answers and tools']), leaks: z.array(CrossUserLeak) })
      .optional(),
    /** Why the case could not finish (a timeout, a crash), when it could not. */
    error: z.string().optional(),
  }),
);
export type Observation = z.infer<typeof Observation>;
