import type { ToolCall } from '../../model/messages.ts';
import type { AuditSink } from '../../observe/audit.ts';
import type { Logger } from '../../observe/logger.ts';
import type { RequestCost } from '../../observe/request-cost.ts';
import type { AgentTracer } from '../../observe/tracer.ts';
import type { ApprovalDecision, ApprovalQuota, Approver } from '../../policy/approvals.ts';
import type { CredentialVault } from '../../policy/credentials.ts';
import type { Principal } from '../../policy/principal.ts';
import type { AgentState } from '../../state/agent-state.ts';
import type { IntentStore } from '../../state/intents.ts';
import { ApprovalWait } from '../approval-wait.ts';
import type { AnyTool, ToolContext } from '../define-tool.ts';
import type { ToolCallOutcome } from '../tool-call-record.ts';
import type { Toolset } from '../toolset.ts';
import { ApprovalGate, deniedRefusal } from './approval-gate.ts';
import { AuditWriter } from './audit-writer.ts';
import { type CallDraft, draftCall } from './call-draft.ts';
import { CallLedger } from './call-ledger.ts';
import { checkCall } from './check-call.ts';
import { IntentGuard, idempotencyKey } from './intent-guard.ts';
import { runAttempts } from './tool-attempts.ts';
import { reportToolSpan, toolSpanSpec } from './tool-span.ts';

/** Everything the executor needs for one agent run. */
export interface ToolRunnerOptions {
  agent: string;
  conversationId: string;
  /** What intent records are scoped to (default: the conversation). */
  intentScope?: string;
  toolset: Toolset;
  /** Names of the tools this agent may call. */
  permitted: ReadonlySet<string>;
  state: AgentState;
  vault: CredentialVault;
  /** Who is asking; handed to every handler as `context.principal`. */
  principal?: Principal | undefined;
  intents: IntentStore;
  audit: AuditSink;
  tracer: AgentTracer;
  logger: Logger;
  /** Operator decisions known when the run starts (resuming after an approval). */
  decisions: ReadonlyMap<string, ApprovalDecision>;
  approver?: Approver | undefined;
  approvalQuota?: ApprovalQuota | undefined;
  signal: AbortSignal;
  /** First retry delay; doubles per retry, capped at 2 s (default 100 ms). */
  retryDelayMs?: number;
  /** Receives what running handlers report (`context.report`). */
  onProgress?: (progress: { callId: string; tool: string; step: number; text: string }) => void;
  /** Receives what running handlers report their handed-on work cost (`context.reportCost`). */
  onCost?: (reported: { callId: string; tool: string; step: number; cost: RequestCost }) => void;
  now?: () => Date;
}

/**
 * The executor. The model only requests tools; this validates each request, applies the agent's
 * policy and runs the handler, and writes what the model sees of any failure.
 *
 * One call goes: check (tool, permission, arguments) → approval gate for dangerous tools → intent
 * guard for non-idempotent ones → attempts → ledger (task state, intents, the model's envelope),
 * inside an `execute_tool` span, with one audit record at the end.
 */
export class ToolRunner {
  readonly #o: ToolRunnerOptions;
  readonly #now: () => Date;
  readonly #audit: AuditWriter;
  readonly #gate: ApprovalGate;
  readonly #guard: IntentGuard;
  readonly #ledger: CallLedger;

  constructor(options: ToolRunnerOptions) {
    const { agent, conversationId, intentScope, toolset, state, vault, intents, audit, logger } = options;
    const now = options.now ?? (() => new Date());
    this.#o = options;
    this.#now = now;
    this.#audit = new AuditWriter({ agent, conversationId, toolset, vault, audit, logger });
    this.#gate = new ApprovalGate({
      agent,
      conversationId,
      state,
      decisions: options.decisions,
      approver: options.approver,
      quota: options.approvalQuota,
      vault,
      principal: options.principal,
      audit: this.#audit,
      logger,
      now,
    });
    this.#guard = new IntentGuard({ agent, scope: intentScope ?? conversationId, intents, now });
    this.#ledger = new CallLedger({ state, vault, guard: this.#guard, logger, now });
  }

  /** Validates, gates and runs one tool call; never throws for anything the model or a handler did. */
  run(call: ToolCall, step: number): Promise<ToolCallOutcome> {
    const { tracer, agent, conversationId, toolset } = this.#o;
    const risk = toolset.get(call.function.name)?.risk ?? 'unknown';
    return tracer.inSpan(toolSpanSpec({ call, step, agent, conversationId, risk }), async (span) => {
      const startedAt = this.#now();
      const t0 = performance.now();
      const outcome = await this.#execute(call, this.#draft(call, step));
      outcome.record.durationMs = Math.round(performance.now() - t0);
      reportToolSpan(span, outcome);
      await this.#audit.toolCall({ outcome, startedAt });
      return outcome;
    });
  }

  /**
   * Answers a call that waited for an approval and will not run (the user moved on): the model is
   * told it was not done, the pending approval is dropped, and the audit records why.
   */
  async withdraw(call: ToolCall, step: number, message: string): Promise<ToolCallOutcome> {
    const startedAt = this.#now();
    this.#gate.withdraw(call.id);
    const draft = this.#draft(call, step);
    draft.record.argumentsValid = true;
    const outcome = await this.#ledger.fail(draft, { code: 'CANCELED', message });
    await this.#audit.toolCall({ outcome, startedAt });
    return outcome;
  }

  #draft(call: ToolCall, step: number): CallDraft {
    return draftCall({ call, step, tool: this.#o.toolset.get(call.function.name) });
  }

  async #execute(call: ToolCall, draft: CallDraft): Promise<ToolCallOutcome> {
    const { permitted, agent } = this.#o;
    const check = checkCall({ call, tool: draft.tool, permitted, agent });
    if ('arguments' in check) draft.record.arguments = check.arguments;
    if (!check.ok) return this.#ledger.fail(draft, check.refusal);
    const { tool } = check;
    draft.record.argumentsValid = true;
    draft.input = check.input;

    const delegated = this.#gate.delegatedFor(call.id);
    if (delegated) {
      draft.record.approvalId = delegated.id;
      const verdict = await this.#gate.resume(delegated);
      if (verdict.kind === 'waiting') return this.#ledger.wait(draft, verdict.request);
      if (verdict.kind === 'mismatch') return this.#ledger.wait(draft, verdict.request, { mismatch: true });
      return this.#runHandler(call, draft, tool, { request: delegated, decision: verdict.decision });
    }
    if (tool.risk === 'dangerous') {
      const verdict = await this.#gate.ask({ call, tool, input: draft.input });
      if (verdict.kind === 'undescribed') {
        return this.#ledger.fail(draft, { code: 'TOOL_FAILED', message: tool.fallbackMessage });
      }
      if (verdict.kind === 'refused') return this.#ledger.fail(draft, verdict.refusal);
      draft.record.approvalId = verdict.request.id;
      if (verdict.kind === 'waiting') return this.#ledger.wait(draft, verdict.request);
      if (verdict.kind === 'mismatch') return this.#ledger.wait(draft, verdict.request, { mismatch: true });
      if (verdict.decision.decision !== 'approved') return this.#ledger.fail(draft, deniedRefusal(verdict));
    }
    return this.#runHandler(call, draft, tool);
  }

  async #runHandler(
    call: ToolCall,
    draft: CallDraft,
    tool: AnyTool,
    approval?: ToolContext['approval'],
  ): Promise<ToolCallOutcome> {
    const { agent, conversationId, vault, logger, signal } = this.#o;
    const key = idempotencyKey({ tool: tool.name, input: draft.input });
    const clearance = await this.#guard.clear({ tool, key });
    draft.intentKey = clearance.kind === 'suppressed' ? undefined : clearance.intentKey;
    if (clearance.kind === 'suppressed') return this.#ledger.fail(draft, clearance.refusal);
    if (clearance.kind === 'replay') {
      draft.record.replayed = true;
      return this.#ledger.succeed(draft, clearance.result);
    }
    this.#ledger.open(draft, key);

    const { result, attempts } = await runAttempts({
      tool,
      input: draft.input,
      signal,
      firstDelayMs: this.#o.retryDelayMs ?? 100,
      logger,
      logFields: { agent, conversationId, tool: tool.name, callId: call.id },
      context: {
        conversationId,
        callId: call.id,
        idempotencyKey: key,
        credentials: vault.scoped({ tool: tool.name, names: tool.credentials }),
        principal: this.#o.principal,
        logger,
        waitForApproval: (request) => new ApprovalWait(request),
        report: (text) =>
          this.#o.onProgress?.({ callId: call.id, tool: tool.name, step: draft.record.step, text }),
        reportCost: (cost) =>
          this.#o.onCost?.({ callId: call.id, tool: tool.name, step: draft.record.step, cost }),
        ...(approval ? { approval } : {}),
      },
    });
    draft.record.attempts = attempts;
    switch (result.kind) {
      case 'ok':
        if (result.data instanceof ApprovalWait) {
          await this.#ledger.release(draft);
          const refusal = await this.#gate.admit(result.data.request);
          if (refusal) return this.#ledger.fail(draft, refusal);
          const request = this.#gate.suspend({ call, input: draft.input, wait: result.data });
          return this.#ledger.wait(draft, request);
        }
        return this.#ledger.succeed(draft, result.data);
      case 'canceled':
        return this.#ledger.fail(
          draft,
          { code: 'CANCELED', message: `The ${tool.name} call was canceled.` },
          'unknown',
        );
      case 'timeout':
        return this.#ledger.fail(
          draft,
          {
            code: 'TIMEOUT',
            message: `The ${tool.name} tool did not answer within ${tool.timeoutMs / 1000} s. ${tool.fallbackMessage}`,
          },
          'unknown',
        );
      case 'error':
        return this.#ledger.fail(draft, { code: 'TOOL_FAILED', message: tool.fallbackMessage }, 'failed');
    }
  }
}
