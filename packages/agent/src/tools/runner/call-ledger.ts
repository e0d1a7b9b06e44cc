import type { Logger } from '../../observe/logger.ts';
import { redactValue, summarize } from '../../observe/redact.ts';
import type { ApprovalRequest } from '../../policy/approvals.ts';
import type { CredentialVault } from '../../policy/credentials.ts';
import type { AgentState } from '../../state/agent-state.ts';
import type { ToolCallOutcome } from '../tool-call-record.ts';
import { REPEATABLE_FAILURES } from '../tool-call-record.ts';
import type { ToolResultEnvelope } from '../tool-result.ts';
import { toolError, toolOk } from '../tool-result.ts';
import type { CallDraft } from './call-draft.ts';
import type { IntentGuard } from './intent-guard.ts';
import type { Refusal } from './refusal.ts';

/** How an action that did not succeed ended: `unknown` when it may have happened all the same. */
type FailedIntent = 'failed' | 'unknown';

/**
 * Writes down how each call ends, in the task state (tool log, slots), in the intent records and in
 * what the model reads: results are redacted of the vault's secrets, failures are our own words.
 */
export class CallLedger {
  readonly #o: {
    state: AgentState;
    vault: CredentialVault;
    guard: IntentGuard;
    logger: Logger;
    now: () => Date;
  };

  constructor(options: {
    state: AgentState;
    vault: CredentialVault;
    guard: IntentGuard;
    logger: Logger;
    now: () => Date;
  }) {
    this.#o = options;
  }

  /** The handler is about to run: the tool log shows the call in progress. */
  open(draft: CallDraft, idempotencyKey: string): void {
    const { state, vault, now } = this.#o;
    state.toolLog.push({
      callId: draft.record.callId,
      tool: draft.record.tool,
      step: draft.record.step,
      argumentsSummary: summarize(draft.input, { secrets: vault.secrets() }),
      intent: 'in_progress',
      idempotencyKey,
      startedAt: now().toISOString(),
    });
  }

  /** The handler answered: its data, redacted, becomes the ok envelope the model reads. */
  async succeed(draft: CallDraft, data: unknown): Promise<ToolCallOutcome> {
    const { vault, state, logger, guard } = this.#o;
    const clean = redactValue(data ?? null, { secrets: vault.secrets(), byKey: false });
    let content: string;
    try {
      content = JSON.stringify(toolOk(clean));
    } catch (error) {
      logger.error({ err: error, tool: draft.record.tool }, 'tool result is not JSON-serialisable');
      const message = draft.tool?.fallbackMessage ?? 'The tool failed.';
      return this.fail(draft, { code: 'TOOL_FAILED', message }, 'unknown');
    }
    if (draft.intentKey && !draft.record.replayed) {
      await guard.finish({ key: draft.intentKey, status: 'succeeded', result: clean });
    }
    this.#closeLog(draft, 'succeeded');
    if (draft.input && typeof draft.input === 'object') Object.assign(state.slots.confirmed, draft.input);
    draft.record.status = 'succeeded';
    return this.#settle(draft, JSON.parse(content) as ToolResultEnvelope, content, false);
  }

  /** The call was refused or failed: the model reads the refusal, never a raw error. */
  async fail(
    draft: CallDraft,
    { code, message, hint }: Refusal,
    intent: FailedIntent = 'failed',
  ): Promise<ToolCallOutcome> {
    if (draft.intentKey) await this.#o.guard.finish({ key: draft.intentKey, status: intent });
    this.#closeLog(draft, intent, code);
    draft.record.status = 'failed';
    draft.record.errorCode = code;
    const envelope = toolError(code, message, hint);
    return this.#settle(draft, envelope, JSON.stringify(envelope), REPEATABLE_FAILURES.has(code));
  }

  /** The call waits for a human's decision on `request`; the run stops until it comes. */
  wait(draft: CallDraft, request: ApprovalRequest, { mismatch = false } = {}): ToolCallOutcome {
    draft.record.approvalId = request.id;
    draft.record.status = 'awaiting_approval';
    return { kind: 'awaiting_approval', request, record: draft.record, ...(mismatch ? { mismatch } : {}) };
  }

  /**
   * The handler stopped to wait for someone else's approval and will run again: its intent is
   * released and its log entry dropped, so the run after the decision starts clean.
   */
  async release(draft: CallDraft): Promise<void> {
    const { state, guard } = this.#o;
    if (draft.intentKey) await guard.finish({ key: draft.intentKey, status: 'failed' });
    state.toolLog = state.toolLog.filter((entry) => entry.callId !== draft.record.callId);
  }

  #settle(
    draft: CallDraft,
    envelope: ToolResultEnvelope,
    content: string,
    countsAsFailure: boolean,
  ): ToolCallOutcome {
    return {
      kind: 'settled',
      envelope,
      message: { role: 'tool', tool_call_id: draft.record.callId, content },
      record: draft.record,
      countsAsFailure,
    };
  }

  #closeLog(draft: CallDraft, intent: 'succeeded' | FailedIntent, errorCode?: string): void {
    const entry = this.#o.state.toolLog.findLast((item) => item.callId === draft.record.callId);
    if (!entry) return;
    entry.intent = intent;
    entry.finishedAt = this.#o.now().toISOString();
    if (errorCode) entry.errorCode = errorCode;
  }
}
