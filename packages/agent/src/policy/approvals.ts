import { createHash } from 'node:crypto';
import { z } from 'zod';
import { argumentsHash } from './arguments-hash.ts';

/** How a dangerous action is described to the human who must approve it. */
export interface ApprovalText {
  /** What will happen, on which data, in plain words: "Refund order R-2041 in full (59.90 EUR)". */
  action: string;
  /** Whether the action can be undone afterwards. */
  reversible: boolean;
  /**
   * What the action carries that the one line cannot hold, in full or its first lines: an email's
   * body, a message's text. Shown under the action; every argument is shown besides.
   */
  details?: string;
}

/** A SHA-256 in hex, as {@link argumentsHash} writes it. */
const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 in hex (64 characters 0-9a-f)');

/** A dangerous action waiting for a human, written for that human. */
export const ApprovalRequest = z.object({
  /** Stable id: the same pending call always has the same id. */
  id: z.string(),
  agent: z.string(),
  conversationId: z.string(),
  toolCallId: z.string(),
  tool: z.string(),
  /** What will happen, on which data: "Refund order R-2041 in full (59.90 EUR)". */
  action: z.string(),
  /** What the one line cannot hold (an email's body), as the tool wrote it for the approver. */
  details: z.string().optional(),
  /** The call's validated arguments, all of them, with the credential vault's secrets redacted. */
  arguments: z.record(z.string(), z.unknown()),
  /**
   * The SHA-256 of the canonical JSON of the validated arguments (before redaction; see
   * `argumentsHash`). A decision approves this hash: the call runs only with these arguments.
   */
  argumentsHash: Sha256Hex,
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
  /**
   * The `argumentsHash` of the request the human saw. An approval runs the call only while the
   * call's arguments still have this hash; for other arguments it is refused and asked again.
   */
  argumentsHash: Sha256Hex,
  /** Who decided (an operator id or name); recorded in the audit. */
  decidedBy: z.string().min(1),
  decidedAt: z.string().min(1),
  reason: z.string().optional(),
});
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;

/**
 * Decides approval requests as they come, e.g. an interactive prompt or an operator policy.
 * Returning `undefined` means "not decided yet": the run stops and waits with `stopReason: "approval"`.
 * A decision approves the request's `argumentsHash` (build it with {@link decisionFor}); one for
 * another hash or another id does not run the call.
 */
export interface Approver {
  decide(request: ApprovalRequest): Promise<ApprovalDecision | undefined> | ApprovalDecision | undefined;
}

/**
 * Bounds how many approvals may wait at once, e.g. per user on a shared board (the host's
 * `maxPendingApprovals`). Asked before a new request joins the pending approvals; a refusal is what
 * the model reads (code `TOO_MANY_APPROVALS`), so write it for the model: what happened, what to do.
 */
export interface ApprovalQuota {
  /** `undefined`: the request may wait; else why it may not, in words for the model. */
  admit(
    request: Omit<ApprovalRequest, 'conversationId' | 'toolCallId'>,
  ): Promise<{ message: string; hint?: string } | undefined> | { message: string; hint?: string } | undefined;
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

/**
 * Builds the approval request a human reads: what, on which data, undoable or not, repeatable or
 * not, with every argument, bound to the arguments by their hash.
 */
export function createApprovalRequest({
  agent,
  conversationId,
  toolCallId,
  tool,
  text,
  repeatable,
  input,
  shownArguments,
  now = new Date(),
}: {
  agent: string;
  conversationId: string;
  toolCallId: string;
  tool: string;
  text: ApprovalText;
  repeatable: boolean;
  /** The call's validated arguments: what the hash is taken of. */
  input: Readonly<Record<string, unknown>>;
  /** The arguments as the approver may read them, secrets redacted (default: `input`). */
  shownArguments?: Readonly<Record<string, unknown>>;
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
    ...(text.details?.trim() ? { details: text.details.trimEnd() } : {}),
    arguments: { ...(shownArguments ?? input) },
    argumentsHash: argumentsHash(input),
    reversible: text.reversible,
    repeatable,
    text: paragraph,
    requestedAt: now.toISOString(),
  };
}

/**
 * A human's decision on a request, bound to the arguments the request showed them.
 *
 * @example
 * const approver: Approver = { decide: (request) => decisionFor({ request, decision: 'approved', decidedBy: 'ada' }) };
 */
export function decisionFor({
  request,
  decision,
  decidedBy,
  reason,
  now = new Date(),
}: {
  request: Pick<ApprovalRequest, 'id' | 'argumentsHash'>;
  decision: ApprovalDecision['decision'];
  decidedBy: string;
  reason?: string;
  now?: Date;
}): ApprovalDecision {
  return {
    approvalId: request.id,
    decision,
    argumentsHash: request.argumentsHash,
    decidedBy,
    decidedAt: now.toISOString(),
    ...(reason ? { reason } : {}),
  };
}
