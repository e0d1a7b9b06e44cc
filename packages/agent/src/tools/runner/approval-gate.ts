import type { ToolCall } from '../../model/messages.ts';
import type { Logger } from '../../observe/logger.ts';
import { redactValue } from '../../observe/redact.ts';
import type { ApprovalDecision, ApprovalQuota, ApprovalRequest, Approver } from '../../policy/approvals.ts';
import { createApprovalRequest } from '../../policy/approvals.ts';
import type { CredentialVault } from '../../policy/credentials.ts';
import type { Principal } from '../../policy/principal.ts';
import type { AgentState } from '../../state/agent-state.ts';
import type { ApprovalWait } from '../approval-wait.ts';
import type { AnyTool } from '../define-tool.ts';
import type { AuditWriter } from './audit-writer.ts';
import type { Refusal } from './refusal.ts';

/** Everything the gate needs for one run. */
export interface ApprovalGateOptions {
  agent: string;
  conversationId: string;
  state: AgentState;
  /** Operator decisions known when the run starts (resuming after an approval). */
  decisions: ReadonlyMap<string, ApprovalDecision>;
  approver?: Approver | undefined;
  /** Bounds the approvals that may wait; a new request over it is refused. */
  quota?: ApprovalQuota | undefined;
  /** Its secrets are scrubbed from the arguments kept as pending slots. */
  vault: CredentialVault;
  /** Who is asking: a tool describes its action as this principal may see it. */
  principal?: Principal | undefined;
  audit: AuditWriter;
  logger: Logger;
  now: () => Date;
}

/**
 * Where a call stands with its approval. `undescribed`: the tool could not say what it would do, so
 * no human can approve it. `mismatch`: an approval came for other arguments than the call has now
 * (they changed after the human saw them); it was refused and the request waits again.
 */
export type ApprovalVerdict =
  | { kind: 'undescribed' }
  | { kind: 'refused'; refusal: Refusal }
  | { kind: 'waiting'; request: ApprovalRequest }
  | { kind: 'mismatch'; request: ApprovalRequest; decision: ApprovalDecision }
  | { kind: 'decided'; request: ApprovalRequest; decision: ApprovalDecision };

/**
 * Holds dangerous calls until a human decides, and keeps the task state's pending approvals. A
 * decision only ever comes from the run's decisions or its approver, never from what a message or
 * a tool result claims; an approval runs a call only while the call's validated arguments have the
 * hash it approved.
 */
export class ApprovalGate {
  readonly #o: ApprovalGateOptions;

  constructor(options: ApprovalGateOptions) {
    this.#o = options;
  }

  /**
   * Asks for approval of a dangerous call: a known decision or the approver's answer, else the
   * request joins the pending approvals and the call waits. Every decision is audited.
   */
  async ask({
    call,
    tool,
    input,
  }: {
    call: ToolCall;
    tool: AnyTool;
    input: unknown;
  }): Promise<ApprovalVerdict> {
    const { agent, conversationId, decisions, state, logger, now } = this.#o;
    const describe = tool.describeForApproval;
    if (!describe) return { kind: 'undescribed' };
    let text: Awaited<ReturnType<typeof describe>>;
    try {
      text = await describe(input, { principal: this.#o.principal });
    } catch (error) {
      logger.error({ err: error, tool: tool.name, callId: call.id }, 'describeForApproval failed');
      return { kind: 'undescribed' };
    }
    const args = input as Record<string, unknown>;
    const request = createApprovalRequest({
      agent,
      conversationId,
      toolCallId: call.id,
      tool: tool.name,
      text,
      repeatable: tool.idempotent,
      input: args,
      shownArguments: this.#redacted(args),
      now: now(),
    });
    const decision = decisions.get(request.id) ?? (await this.#askApprover(request));
    if (!decision) {
      const refusal = await this.admit(request);
      if (refusal) return { kind: 'refused', refusal };
      return { kind: 'waiting', request: this.#pend(request, input) };
    }
    if (!this.#binds(decision, request)) return this.#refuse(request, decision, input);
    state.pendingApprovals = state.pendingApprovals.filter((pending) => pending.id !== request.id);
    await this.#o.audit.decision({ request, decision });
    return { kind: 'decided', request, decision };
  }

  /** The pending approval another agent asked for on behalf of this call, if there is one. */
  delegatedFor(callId: string): ApprovalRequest | undefined {
    return this.#o.state.pendingApprovals.find(
      (pending) => pending.toolCallId === callId && pending.delegate,
    );
  }

  /**
   * A call whose handler waited for someone else's approval: once the decision is in, it leaves
   * the pending approvals, is audited, and the handler runs again with it (approved or denied).
   */
  async resume(
    request: ApprovalRequest,
  ): Promise<Exclude<ApprovalVerdict, { kind: 'undescribed' } | { kind: 'refused' }>> {
    const { decisions, state } = this.#o;
    const decision = decisions.get(request.id) ?? (await this.#askApprover(request));
    if (!decision) return { kind: 'waiting', request };
    if (!this.#binds(decision, request)) return this.#refuse(request, decision);
    state.pendingApprovals = state.pendingApprovals.filter((pending) => pending.id !== request.id);
    state.slots.pending = {};
    await this.#o.audit.decision({ request, decision });
    return { kind: 'decided', request, decision };
  }

  /** The handler handed on another agent's approval request: it becomes this call's pending approval. */
  suspend({ call, input, wait }: { call: ToolCall; input: unknown; wait: ApprovalWait }): ApprovalRequest {
    const { conversationId, state } = this.#o;
    const request: ApprovalRequest = { ...wait.request, conversationId, toolCallId: call.id };
    state.pendingApprovals = [...state.pendingApprovals.filter((p) => p.id !== request.id), request];
    this.#holdPending(input);
    return request;
  }

  /**
   * Whether a new request may join the pending approvals: one already pending always may; else the
   * quota answers. A quota that fails admits (the call still waits for a human) and is logged.
   */
  async admit(request: Omit<ApprovalRequest, 'conversationId' | 'toolCallId'>): Promise<Refusal | undefined> {
    const { quota, state, logger } = this.#o;
    if (!quota || state.pendingApprovals.some((pending) => pending.id === request.id)) return undefined;
    try {
      const refused = await quota.admit(request);
      return refused && { code: 'TOO_MANY_APPROVALS', message: refused.message, hint: refused.hint };
    } catch (error) {
      logger.error({ err: error, approvalId: request.id }, 'approval quota failed; the request waits');
      return undefined;
    }
  }

  /** The call will not run (the user moved on): its pending approval and pending slots are dropped. */
  withdraw(callId: string): void {
    const { state } = this.#o;
    state.pendingApprovals = state.pendingApprovals.filter((pending) => pending.toolCallId !== callId);
    state.slots.pending = {};
  }

  /** The arguments of a waiting call, redacted, kept as the task's pending slots. */
  #holdPending(input: unknown): void {
    Object.assign(this.#o.state.slots.pending, this.#redacted(input));
  }

  #redacted(input: unknown): Record<string, unknown> {
    return redactValue(input, { secrets: this.#o.vault.secrets() }) as Record<string, unknown>;
  }

  /**
   * The request joins the pending approvals, or stays there as it was asked first; when the
   * arguments changed since, what is asked now replaces it, so nobody approves what was asked before.
   */
  #pend(request: ApprovalRequest, input: unknown): ApprovalRequest {
    const { state } = this.#o;
    const asked = state.pendingApprovals.find((pending) => pending.id === request.id);
    const current = asked?.argumentsHash === request.argumentsHash ? asked : request;
    if (current !== asked)
      state.pendingApprovals = [...state.pendingApprovals.filter((p) => p.id !== request.id), current];
    this.#holdPending(input);
    return current;
  }

  /** A denial always holds (nothing runs); an approval holds only for the arguments it saw. */
  #binds(decision: ApprovalDecision, request: ApprovalRequest): boolean {
    return decision.decision === 'denied' || decision.argumentsHash === request.argumentsHash;
  }

  /**
   * An approval for other arguments than the call has now: the call does not run, the refusal is
   * audited, and the request waits for a decision on what is asked now.
   */
  async #refuse(
    request: ApprovalRequest,
    decision: ApprovalDecision,
    input?: unknown,
  ): Promise<Extract<ApprovalVerdict, { kind: 'mismatch' }>> {
    const pending = input === undefined ? request : this.#pend(request, input);
    this.#o.logger.warn(
      {
        approvalId: request.id,
        tool: request.tool,
        decidedBy: decision.decidedBy,
        approvedHash: decision.argumentsHash,
        requestedHash: request.argumentsHash,
      },
      'an approval for other arguments was refused; the call waits for a new decision',
    );
    await this.#o.audit.mismatch({ request, decision });
    return { kind: 'mismatch', request: pending, decision };
  }

  /** An approver that fails leaves the call waiting: a broken approver must never approve. */
  async #askApprover(request: ApprovalRequest): Promise<ApprovalDecision | undefined> {
    const { approver, logger } = this.#o;
    try {
      const decision = await approver?.decide(request);
      return decision?.approvalId === request.id ? decision : undefined;
    } catch (error) {
      logger.error(
        { err: error, approvalId: request.id, tool: request.tool },
        'approver failed; the call waits',
      );
      return undefined;
    }
  }
}

/** What the model reads when the operator declined: it was not done, and must not be tried again. */
export function deniedRefusal({
  request,
  decision,
}: {
  request: ApprovalRequest;
  decision: ApprovalDecision;
}): Refusal {
  const reason = decision.reason ? ` Reason given: ${decision.reason}` : '';
  return {
    code: 'APPROVAL_DENIED',
    message: `The operator declined this action: ${request.action}. It was not done.${reason}`,
    hint: 'Tell the user plainly that it was not done. Do not try it again in this conversation.',
  };
}
