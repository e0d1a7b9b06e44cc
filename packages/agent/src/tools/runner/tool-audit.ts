import type {
  ApprovalAuditRecord,
  ApprovalMismatchAuditRecord,
  AuditStatus,
  ToolCallAuditRecord,
} from '../../observe/audit.ts';
import { summarize } from '../../observe/redact.ts';
import type { ApprovalDecision, ApprovalRequest } from '../../policy/approvals.ts';
import type { ToolRisk } from '../../policy/tool-risk.ts';
import type { ToolCallOutcome } from '../tool-call-record.ts';

/** How the audit names the end of a call: refused before the handler, failed in it, and so on. */
export function auditStatus(outcome: ToolCallOutcome): AuditStatus {
  const { record } = outcome;
  if (outcome.kind === 'awaiting_approval') return 'awaiting_approval';
  if (record.replayed || record.errorCode === 'DUPLICATE_SUPPRESSED') return 'suppressed';
  if (record.status === 'succeeded') return 'succeeded';
  return record.attempts === 0 ? 'refused' : 'failed';
}

/** The audit record of one settled or waiting call, with its arguments redacted. */
export function toolCallAuditRecord({
  outcome,
  agent,
  conversationId,
  risk,
  startedAt,
  secrets,
}: {
  outcome: ToolCallOutcome;
  agent: string;
  conversationId: string;
  risk: ToolRisk | 'unknown';
  startedAt: Date;
  secrets: readonly string[];
}): ToolCallAuditRecord {
  const { record } = outcome;
  return {
    kind: 'tool_call',
    agent,
    conversationId,
    step: record.step,
    callId: record.callId,
    tool: record.tool,
    risk,
    argumentsSummary: summarize(record.arguments, { secrets }),
    startedAt: startedAt.toISOString(),
    durationMs: record.durationMs,
    status: auditStatus(outcome),
    ...(record.errorCode ? { errorCode: record.errorCode } : {}),
    retries: Math.max(0, record.attempts - 1),
    ...(record.approvalId ? { approvalId: record.approvalId } : {}),
  };
}

/** The audit record of a human's decision on an approval request. */
export function approvalAuditRecord({
  agent,
  conversationId,
  request,
  decision,
}: {
  agent: string;
  conversationId: string;
  request: ApprovalRequest;
  decision: ApprovalDecision;
}): ApprovalAuditRecord {
  return {
    kind: 'approval_decision',
    agent,
    conversationId,
    approvalId: request.id,
    tool: request.tool,
    decision: decision.decision,
    argumentsHash: decision.argumentsHash,
    decidedBy: decision.decidedBy,
    decidedAt: decision.decidedAt,
    ...(decision.reason ? { reason: decision.reason } : {}),
  };
}

/** The audit record of an approval refused because the call's arguments are not those approved. */
export function approvalMismatchAuditRecord({
  agent,
  conversationId,
  request,
  decision,
}: {
  agent: string;
  conversationId: string;
  request: ApprovalRequest;
  decision: ApprovalDecision;
}): ApprovalMismatchAuditRecord {
  return {
    kind: 'approval_mismatch',
    agent,
    conversationId,
    approvalId: request.id,
    tool: request.tool,
    decidedBy: decision.decidedBy,
    decidedAt: decision.decidedAt,
    approvedHash: decision.argumentsHash,
    requestedHash: request.argumentsHash,
  };
}
