import { createHash } from 'node:crypto';
import { z } from 'zod';

/** How a dangerous action is described to the human who must approve it. */
export interface ApprovalText {
  /** What will happen, on which data, in plain words: "Refund order A10086 in full (59.90 EUR)". */
  action: string;
  /** Whether the action can be undone afterwards. */
  reversible: boolean;
}

/** A dangerous action waiting for a human, written for that human. */
export const ApprovalRequest = z.object({
  /** Stable id: the same pending call always has the same id. */
  id: z.string(),
  agent: z.string(),
  conversationId: z.string(),
  toolCallId: z.string(),
  tool: z.string(),
  /** What will happen, on which data: "Refund order A10086 in full (59.90 EUR)". */
  action: z.string(),
  reversible: z.boolean(),
  /** Whether running it again would be harmless. */
  repeatable: z.boolean(),
  /** The whole request as one readable paragraph. */
  text: z.string(),
  requestedAt: z.string(),
  /**
   * Set when another agent asked for this approval while working for us (a delegated task): where
   * that agent's task waits. The decision is handed on to it when the call runs again.
   */
  delegate: z.object({ agent: z.string(), taskId: z.string(), contextId: z.string() }).optional(),
});
export type ApprovalRequest = z.infer<typeof ApprovalRequest>;

/** A human's answer to an {@link ApprovalRequest}. */
export const ApprovalDecision = z.object({
  approvalId: z.string().min(1),
  decision: z.enum(['approved', 'denied']),
  /** Who decided (an operator id or name); recorded in the audit. */
  decidedBy: z.string().min(1),
  decidedAt: z.string().min(1),
  reason: z.string().optional(),
});
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;

/**
 * Decides approval requests as they come, e.g. an interactive prompt or an operator policy.
 * Returning `undefined` means "not decided yet": the run stops and waits with `stopReason: "approval"`.
 */
export interface Approver {
  decide(request: ApprovalRequest): Promise<ApprovalDecision | undefined> | ApprovalDecision | undefined;
}

/** The stable id of the approval for one tool call of one conversation. */
export function approvalId({
  conversationId,
  toolCallId,
}: {
  conversationId: string;
  toolCallId: string;
}): string {
  return `apr_${createHash('sha256').update(`${conversationId}\u0000${toolCallId}`).digest('hex').slice(0, 16)}`;
}

/** Builds the approval request a human reads: what, on which data, undoable or not, repeatable or not. */
export function createApprovalRequest({
  agent,
  conversationId,
  toolCallId,
  tool,
  text,
  repeatable,
  now = new Date(),
}: {
  agent: string;
  conversationId: string;
  toolCallId: string;
  tool: string;
  text: ApprovalText;
  repeatable: boolean;
  now?: Date;
}): ApprovalRequest {
  const action = text.action.trim().replace(/\.$/, '');
  const paragraph = [
    `The ${agent} agent wants to: ${action}.`,
    text.reversible ? 'This can be undone afterwards.' : 'This cannot be undone.',
    repeatable
      ? 'Running it again would be harmless.'
      : 'It will run at most once, even if the request is retried.',
  ].join(' ');
  return {
    id: approvalId({ conversationId, toolCallId }),
    agent,
    conversationId,
    toolCallId,
    tool,
    action,
    reversible: text.reversible,
    repeatable,
    text: paragraph,
    requestedAt: now.toISOString(),
  };
}
