import type { ToolMessage } from '../model/messages.ts';
import type { ApprovalRequest } from '../policy/approvals.ts';
import type { ToolErrorCode, ToolResultEnvelope } from './tool-result.ts';

/** One entry of a run's tool-call trajectory. */
export interface ToolCallRecord {
  callId: string;
  tool: string;
  step: number;
  /** The arguments as parsed from the model's JSON; the raw text when it was not JSON. */
  arguments: unknown;
  status: 'succeeded' | 'failed' | 'awaiting_approval';
  errorCode?: ToolErrorCode;
  /** Whether the arguments passed the schema (false also when they were not JSON). */
  argumentsValid: boolean;
  /** Handler attempts made (0 when the call was refused before the handler). */
  attempts: number;
  durationMs: number;
  approvalId?: string;
  /** True when a recorded result was replayed instead of running a non-idempotent action again. */
  replayed?: boolean;
}

/** How the executor settled one tool call. */
export type ToolCallOutcome =
  | {
      kind: 'settled';
      envelope: ToolResultEnvelope;
      message: ToolMessage;
      record: ToolCallRecord;
      /** Counts towards the run's "same tool keeps failing" stop. */
      countsAsFailure: boolean;
    }
  | {
      kind: 'awaiting_approval';
      request: ApprovalRequest;
      record: ToolCallRecord;
      /**
       * True when an approval came for other arguments than the call has now: it was refused, and
       * the request waits for a decision on what is asked now.
       */
      mismatch?: boolean;
    };

/** Failures that say the model is stuck on a tool (as opposed to a human's decision). */
export const REPEATABLE_FAILURES: ReadonlySet<ToolErrorCode> = new Set([
  'UNKNOWN_TOOL',
  'INVALID_JSON',
  'INVALID_ARGUMENTS',
  'PERMISSION_DENIED',
  'TIMEOUT',
  'TOOL_FAILED',
]);
