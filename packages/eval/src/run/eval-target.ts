import type { EvalCase } from '../case/eval-case.ts';
import type { CrossUserLeak, ForeignData } from './cross-user.ts';
import type { Observation, OperatorDecision } from './observation.ts';

/** A secret of the system under test, and what it is (for the report; the value never is). */
export interface SystemSecret {
  label: string;
  value: string;
}

/** What a target could observe of a case besides the conversation itself. */
export type TargetObservation = Pick<
  Observation,
  'calls' | 'dangerousRuns' | 'steps' | 'promptTokens' | 'completionTokens'
> & {
  /**
   * Other users' data in the tools' results and in what reached the supervisor, and writes on
   * their records; absent when the target cannot see them (a deployment).
   */
  crossUserLeaks?: CrossUserLeak[];
};

/** The system one case runs against, from start to stop. */
export interface CaseSession {
  /** The supervisor's base URL. */
  url: string;
  /** The token of the case's caller (its user's, or an operator's), for the A2A calls. */
  token: string;
  /** An operator's token (the admin API). */
  adminToken: string;
  /** Every secret an answer must not hold. */
  secrets: readonly SystemSecret[];
  /**
   * The data of every user other than the case's, which no answer may show (undefined when the
   * case asks as an operator, or the target knows no users).
   */
  foreign: ForeignData | undefined;
  /** The trajectory, steps and tokens, as far as the target can see them. */
  collect(decisions: readonly OperatorDecision[]): TargetObservation;
  stop(): Promise<void>;
}

/**
 * Where cases run: a fresh system in this process per case (everything observable, faults
 * injectable), or a running deployment (only the conversation is observable).
 */
export interface EvalTarget {
  readonly kind: 'in-process' | 'deployment';
  /** For reports: `in process` or the supervisor's URL. */
  readonly label: string;
  /** The model the agents run on, as the report names it (`offline`, `scripted`, a model name, `deployment`). */
  readonly model: string;
  /** Whether tool calls, steps, tokens and dangerous runs can be observed. */
  readonly observable: boolean;
  /** Why this case cannot run on this target (it is then reported as skipped), if it cannot. */
  skipReason(evalCase: EvalCase): string | undefined;
  /** Starts (or connects to) the system for one case. */
  open(evalCase: EvalCase): Promise<CaseSession>;
  /** Releases what the target holds for the whole run (a model server). */
  close(): Promise<void>;
}
