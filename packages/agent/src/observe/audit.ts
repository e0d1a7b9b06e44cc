import type { ToolRisk } from '../policy/tool-risk.ts';

/** What happened to one tool call, from the audit's point of view. */
export type AuditStatus = 'succeeded' | 'failed' | 'refused' | 'awaiting_approval' | 'suppressed';

/** One record per tool call: who asked for what, when, and how it ended. Arguments are redacted. */
export interface ToolCallAuditRecord {
  kind: 'tool_call';
  agent: string;
  conversationId: string;
  step: number;
  callId: string;
  tool: string;
  risk: ToolRisk | 'unknown';
  /** A redacted, truncated summary of the arguments; never the raw values of secrets. */
  argumentsSummary: string;
  startedAt: string;
  durationMs: number;
  status: AuditStatus;
  errorCode?: string;
  /** Attempts after the first. */
  retries: number;
  approvalId?: string;
}

/** One record per approval decision: who decided what, and when. */
export interface ApprovalAuditRecord {
  kind: 'approval_decision';
  agent: string;
  conversationId: string;
  approvalId: string;
  tool: string;
  decision: 'approved' | 'denied';
  /** The hash of the arguments the decision was taken on (see `argumentsHash`). */
  argumentsHash: string;
  decidedBy: string;
  decidedAt: string;
  reason?: string;
}

/**
 * An approval refused because it was for other arguments than the call has now (they changed
 * after the human saw them): the call did not run and waits for a new decision.
 */
export interface ApprovalMismatchAuditRecord {
  kind: 'approval_mismatch';
  agent: string;
  conversationId: string;
  approvalId: string;
  tool: string;
  decidedBy: string;
  decidedAt: string;
  /** The hash of the arguments the human approved. */
  approvedHash: string;
  /** The hash of the arguments the call has now. */
  requestedHash: string;
}

export type AuditRecord = ToolCallAuditRecord | ApprovalAuditRecord | ApprovalMismatchAuditRecord;

/** Where audit records go (a log, a Redis stream, a database). Failures to write are logged, not thrown. */
export interface AuditSink {
  write(record: AuditRecord): void | Promise<void>;
}

/** An audit sink that keeps records in memory, for tests and demos. */
export class MemoryAuditSink implements AuditSink {
  readonly records: AuditRecord[] = [];
  write(record: AuditRecord): void {
    this.records.push(record);
  }
}
