import type { FinishReason, TokenUsage } from '../model/messages.ts';
import type { RequestCost } from '../observe/request-cost.ts';
import type { ApprovalRequest } from '../policy/approvals.ts';
import type { ToolCallRecord } from '../tools/tool-call-record.ts';
import type { ToolResultEnvelope } from '../tools/tool-result.ts';

/**
 * How a run ended. `clarify` and `unsupported` are the tool router's: no tool was trusted with the
 * request, so the agent asked which one was meant, or said it cannot do this (see `ToolRouter`).
 */
export type StopReason =
  | 'model'
  | 'maxSteps'
  | 'failures'
  | 'approval'
  | 'canceled'
  | 'clarify'
  | 'unsupported';

/** What happened in one step (one model call and the tools it asked for). */
export interface StepRecord {
  step: number;
  finishReason: FinishReason;
  usage: TokenUsage;
  text: string | null;
  toolCallIds: string[];
  /** Turns cut from the history sent on this step. */
  droppedTurns: number;
  durationMs: number;
}

/** Progress of a run, for callers that show it as it happens. */
export type AgentEvent =
  | { type: 'step-started'; step: number }
  | { type: 'text-delta'; step: number; delta: string }
  | { type: 'tool-call-started'; step: number; callId: string; tool: string; arguments: string }
  | {
      type: 'tool-call-finished';
      step: number;
      record: ToolCallRecord;
      result: ToolResultEnvelope | undefined;
    }
  | { type: 'approval-required'; step: number; request: ApprovalRequest }
  /** A running tool said how it is getting on (e.g. a delegate agent's own steps). */
  | { type: 'tool-progress'; step: number; callId: string; tool: string; text: string }
  /** A running tool handed work on, and says what it cost (a delegate's runs and its own delegations). */
  | { type: 'tool-cost'; step: number; callId: string; tool: string; cost: RequestCost }
  | { type: 'step-finished'; step: number; record: StepRecord }
  | { type: 'run-finished'; stopReason: StopReason };

/** Exhaustiveness guard for switches over unions. */
export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
