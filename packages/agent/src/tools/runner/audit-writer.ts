import type { AuditRecord, AuditSink } from '../../observe/audit.ts';
import type { Logger } from '../../observe/logger.ts';
import type { ApprovalDecision, ApprovalRequest } from '../../policy/approvals.ts';
import type { CredentialVault } from '../../policy/credentials.ts';
import type { ToolCallOutcome } from '../tool-call-record.ts';
import type { Toolset } from '../toolset.ts';
import { approvalAuditRecord, approvalMismatchAuditRecord, toolCallAuditRecord } from './tool-audit.ts';

/** Where a run's audit records go, and what they are written with. */
export interface AuditWriterOptions {
  agent: string;
  conversationId: string;
  /** Looks up each call's risk. */
  toolset: Toolset;
  /** Its secrets are scrubbed from argument summaries. */
  vault: CredentialVault;
  audit: AuditSink;
  logger: Logger;
}

/**
 * Writes one run's audit records. A sink that fails is logged and the call goes on: the audit must
 * not decide whether a user gets an answer.
 */
export class AuditWriter {
  readonly #o: AuditWriterOptions;

  constructor(options: AuditWriterOptions) {
    this.#o = options;
  }

  /** How one call ended, with its arguments redacted. */
  toolCall({ outcome, startedAt }: { outcome: ToolCallOutcome; startedAt: Date }): Promise<void> {
    const { agent, conversationId, toolset, vault } = this.#o;
    const risk = toolset.get(outcome.record.tool)?.risk ?? 'unknown';
    return this.#write(
      toolCallAuditRecord({ outcome, agent, conversationId, risk, startedAt, secrets: vault.secrets() }),
    );
  }

  /** Who decided an approval request, and how. */
  decision({ request, decision }: { request: ApprovalRequest; decision: ApprovalDecision }): Promise<void> {
    const { agent, conversationId } = this.#o;
    return this.#write(approvalAuditRecord({ agent, conversationId, request, decision }));
  }

  /** An approval refused because it was for other arguments than the call has now. */
  mismatch({ request, decision }: { request: ApprovalRequest; decision: ApprovalDecision }): Promise<void> {
    const { agent, conversationId } = this.#o;
    return this.#write(approvalMismatchAuditRecord({ agent, conversationId, request, decision }));
  }

  async #write(record: AuditRecord): Promise<void> {
    try {
      await this.#o.audit.write(record);
    } catch (error) {
      this.#o.logger.error({ err: error, record: record.kind }, 'audit sink failed to write a record');
    }
  }
}
