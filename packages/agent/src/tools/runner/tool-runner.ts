import { createHash } from 'node:crypto';
import { GEN_AI, genAiSpanName, SWITCHBOARD } from '@switchboard/semconv';
import type { ToolCall } from '../../model/messages.ts';
import type { AuditRecord, AuditSink } from '../../observe/audit.ts';
import type { Logger } from '../../observe/logger.ts';
import { redactValue, summarize } from '../../observe/redact.ts';
import type { AgentSpan, AgentTracer } from '../../observe/tracer.ts';
import type { ApprovalDecision, ApprovalRequest, Approver } from '../../policy/approvals.ts';
import { createApprovalRequest } from '../../policy/approvals.ts';
import type { CredentialVault } from '../../policy/credentials.ts';
import type { IntentStore } from '../../state/intents.ts';
import type { TaskState } from '../../state/task-state.ts';
import { ApprovalWait } from '../approval-wait.ts';
import { formatArgumentIssues } from '../argument-errors.ts';
import type { AnyTool, ToolContext } from '../define-tool.ts';
import type { ToolCallOutcome, ToolCallRecord } from '../tool-call-record.ts';
import { REPEATABLE_FAILURES } from '../tool-call-record.ts';
import type { ToolErrorCode, ToolResultEnvelope } from '../tool-result.ts';
import { toolError, toolOk } from '../tool-result.ts';
import type { Toolset } from '../toolset.ts';
import { invokeHandler, sleep } from './invoke-handler.ts';
import { toolCallAuditRecord } from './tool-audit.ts';

/** Everything the executor needs for one agent run. */
export interface ToolRunnerOptions {
  agent: string;
  conversationId: string;
  /** What intent records are scoped to (default: the conversation). */
  intentScope?: string;
  toolset: Toolset;
  /** Names of the tools this agent may call. */
  permitted: ReadonlySet<string>;
  state: TaskState;
  vault: CredentialVault;
  intents: IntentStore;
  audit: AuditSink;
  tracer: AgentTracer;
  logger: Logger;
  /** Operator decisions known when the run starts (resuming after an approval). */
  decisions: ReadonlyMap<string, ApprovalDecision>;
  approver?: Approver | undefined;
  signal: AbortSignal;
  /** First retry delay; doubles per retry, capped at 2 s (default 100 ms). */
  retryDelayMs?: number;
  /** Receives what running handlers report (`context.report`). */
  onProgress?: (progress: { callId: string; tool: string; step: number; text: string }) => void;
  now?: () => Date;
}

type Draft = { record: ToolCallRecord; tool: AnyTool | undefined; input: unknown; intentKey?: string };

/**
 * The executor. The model only requests tools; this validates each request, applies the agent's
 * policy and runs the handler, and writes what the model sees of any failure.
 */
export class ToolRunner {
  readonly #o: ToolRunnerOptions;
  readonly #now: () => Date;

  constructor(options: ToolRunnerOptions) {
    this.#o = options;
    this.#now = options.now ?? (() => new Date());
  }

  /** Validates, gates and runs one tool call; never throws for anything the model or a handler did. */
  run(call: ToolCall, step: number): Promise<ToolCallOutcome> {
    const { tracer, agent, conversationId, toolset } = this.#o;
    const attributes = {
      [GEN_AI.operationName]: 'execute_tool',
      [GEN_AI.toolName]: call.function.name,
      [GEN_AI.toolCallId]: call.id,
      [GEN_AI.toolType]: 'function',
      [GEN_AI.agentName]: agent,
      [GEN_AI.conversationId]: conversationId,
      [SWITCHBOARD.toolRisk]: toolset.get(call.function.name)?.risk ?? 'unknown',
      [SWITCHBOARD.agentStep]: step,
    };
    const spec = {
      operation: 'execute_tool' as const,
      name: genAiSpanName({ operation: 'execute_tool', target: call.function.name }),
      attributes,
    };
    return tracer.inSpan(spec, async (span) => {
      const startedAt = this.#now();
      const t0 = performance.now();
      const draft = this.#draft(call, step);
      const outcome = await this.#execute(call, draft);
      outcome.record.durationMs = Math.round(performance.now() - t0);
      this.#report(span, outcome);
      await this.#audit(outcome, startedAt);
      return outcome;
    });
  }

  /**
   * Answers a call that waited for an approval and will not run (the user moved on): the model is
   * told it was not done, the pending approval is dropped, and the audit records why.
   */
  async withdraw(call: ToolCall, step: number, message: string): Promise<ToolCallOutcome> {
    const startedAt = this.#now();
    const { state } = this.#o;
    state.pendingApprovals = state.pendingApprovals.filter((pending) => pending.toolCallId !== call.id);
    state.slots.pending = {};
    const draft = this.#draft(call, step);
    draft.record.argumentsValid = true;
    const outcome = await this.#fail(draft, 'CANCELLED', message);
    await this.#audit(outcome, startedAt);
    return outcome;
  }

  #draft(call: ToolCall, step: number): Draft {
    return {
      tool: this.#o.toolset.get(call.function.name),
      input: undefined,
      record: {
        callId: call.id,
        tool: call.function.name,
        step,
        arguments: call.function.arguments,
        status: 'failed',
        argumentsValid: false,
        attempts: 0,
        durationMs: 0,
      },
    };
  }

  async #execute(call: ToolCall, draft: Draft): Promise<ToolCallOutcome> {
    const { permitted, agent } = this.#o;
    const name = call.function.name;
    const choices = `Use one of: ${[...permitted].join(', ') || '(none)'}.`;
    const { tool } = draft;
    if (!tool) return this.#fail(draft, 'UNKNOWN_TOOL', `There is no tool named "${name}".`, choices);
    if (!permitted.has(name)) {
      return this.#fail(
        draft,
        'PERMISSION_DENIED',
        `The ${agent} agent is not permitted to use ${name}.`,
        choices,
      );
    }

    let raw: unknown;
    try {
      raw = call.function.arguments.trim() === '' ? {} : JSON.parse(call.function.arguments);
    } catch (error) {
      const why = error instanceof SyntaxError ? ` (${error.message})` : '';
      return this.#fail(
        draft,
        'INVALID_JSON',
        `The arguments for ${name} are not valid JSON${why}.`,
        `Send the arguments as one JSON object with the fields of ${name}'s parameters.`,
      );
    }
    draft.record.arguments = raw;
    const parsed = tool.input.safeParse(raw, { reportInput: true });
    if (!parsed.success) {
      return this.#fail(
        draft,
        'INVALID_ARGUMENTS',
        `Invalid arguments for ${name}: ${formatArgumentIssues(parsed.error.issues)}.`,
        `Fix the arguments and call ${name} again, or ask the user for the missing information.`,
      );
    }
    draft.record.argumentsValid = true;
    draft.input = parsed.data;

    const delegated = this.#o.state.pendingApprovals.find(
      (pending) => pending.toolCallId === call.id && pending.delegate,
    );
    if (delegated) return this.#resumeDelegated(call, draft, tool, delegated);
    if (tool.risk === 'dangerous') {
      const gate = await this.#approve(call, draft, tool);
      if (gate) return gate;
    }
    return this.#runHandler(call, draft, tool);
  }

  async #approve(call: ToolCall, draft: Draft, tool: AnyTool): Promise<ToolCallOutcome | undefined> {
    const { agent, conversationId, decisions, state } = this.#o;
    const describe = tool.describeForApproval;
    if (!describe) return this.#fail(draft, 'TOOL_FAILED', tool.fallbackMessage);
    let text: Awaited<ReturnType<typeof describe>>;
    try {
      text = await describe(draft.input);
    } catch (error) {
      this.#o.logger.error({ err: error, tool: tool.name, callId: call.id }, 'describeForApproval failed');
      return this.#fail(draft, 'TOOL_FAILED', tool.fallbackMessage);
    }
    const request = createApprovalRequest({
      agent,
      conversationId,
      toolCallId: call.id,
      tool: tool.name,
      text,
      repeatable: tool.idempotent,
      now: this.#now(),
    });
    draft.record.approvalId = request.id;
    const decision = decisions.get(request.id) ?? (await this.#askApprover(request));
    if (!decision) {
      if (!state.pendingApprovals.some((pending) => pending.id === request.id))
        state.pendingApprovals.push(request);
      Object.assign(state.slots.pending, redactValue(draft.input, { secrets: this.#o.vault.secrets() }));
      draft.record.status = 'awaiting_approval';
      return { kind: 'awaiting_approval', request, record: draft.record };
    }
    state.pendingApprovals = state.pendingApprovals.filter((pending) => pending.id !== request.id);
    await this.#write({
      kind: 'approval_decision',
      agent,
      conversationId,
      approvalId: request.id,
      tool: tool.name,
      decision: decision.decision,
      decidedBy: decision.decidedBy,
      decidedAt: decision.decidedAt,
      ...(decision.reason ? { reason: decision.reason } : {}),
    });
    if (decision.decision === 'approved') return undefined;
    const reason = decision.reason ? ` Reason given: ${decision.reason}` : '';
    return this.#fail(
      draft,
      'APPROVAL_DENIED',
      `The operator declined this action: ${request.action}. It was not done.${reason}`,
      'Tell the user plainly that it was not done. Do not try it again in this conversation.',
    );
  }

  /** A call whose handler waited for someone else's approval: runs again once the decision is in. */
  async #resumeDelegated(
    call: ToolCall,
    draft: Draft,
    tool: AnyTool,
    request: ApprovalRequest,
  ): Promise<ToolCallOutcome> {
    const { agent, conversationId, decisions, state } = this.#o;
    draft.record.approvalId = request.id;
    const decision = decisions.get(request.id) ?? (await this.#askApprover(request));
    if (!decision) {
      draft.record.status = 'awaiting_approval';
      return { kind: 'awaiting_approval', request, record: draft.record };
    }
    state.pendingApprovals = state.pendingApprovals.filter((pending) => pending.id !== request.id);
    state.slots.pending = {};
    await this.#write({
      kind: 'approval_decision',
      agent,
      conversationId,
      approvalId: request.id,
      tool: request.tool,
      decision: decision.decision,
      decidedBy: decision.decidedBy,
      decidedAt: decision.decidedAt,
      ...(decision.reason ? { reason: decision.reason } : {}),
    });
    return this.#runHandler(call, draft, tool, { request, decision });
  }

  /** The handler handed on another agent's approval request: the call waits for a human. */
  async #suspend(call: ToolCall, draft: Draft, wait: ApprovalWait): Promise<ToolCallOutcome> {
    const { conversationId, state } = this.#o;
    const request: ApprovalRequest = { ...wait.request, conversationId, toolCallId: call.id };
    if (draft.intentKey) {
      await this.#o.intents.finish({ key: draft.intentKey, status: 'failed', now: this.#now() });
    }
    state.toolLog = state.toolLog.filter((entry) => entry.callId !== call.id);
    state.pendingApprovals = [...state.pendingApprovals.filter((p) => p.id !== request.id), request];
    Object.assign(state.slots.pending, redactValue(draft.input, { secrets: this.#o.vault.secrets() }));
    draft.record.approvalId = request.id;
    draft.record.status = 'awaiting_approval';
    return { kind: 'awaiting_approval', request, record: draft.record };
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

  async #runHandler(
    call: ToolCall,
    draft: Draft,
    tool: AnyTool,
    approval?: ToolContext['approval'],
  ): Promise<ToolCallOutcome> {
    const { agent, conversationId, intents, vault, logger, signal, state } = this.#o;
    const idempotencyKey = createHash('sha256')
      .update(`${tool.name}\u0000${JSON.stringify(draft.input)}`)
      .digest('hex')
      .slice(0, 24);
    if (!tool.idempotent) {
      draft.intentKey = `${agent}:${this.#o.intentScope ?? conversationId}:${tool.name}:${idempotencyKey}`;
      const begin = await intents.begin({ key: draft.intentKey, tool: tool.name, now: this.#now() });
      if (!begin.started && begin.existing.status === 'succeeded') {
        draft.record.replayed = true;
        return this.#succeed(draft, begin.existing.result);
      }
      if (!begin.started) {
        draft.intentKey = undefined;
        return this.#fail(
          draft,
          'DUPLICATE_SUPPRESSED',
          `This ${tool.name} action was already started earlier and may have completed, so it was not run again.`,
          'Tell the user the action is being checked by an operator; do not retry it.',
        );
      }
    }
    const logEntry = {
      callId: call.id,
      tool: tool.name,
      step: draft.record.step,
      argumentsSummary: summarize(draft.input, { secrets: vault.secrets() }),
      intent: 'in_progress' as const,
      idempotencyKey,
      startedAt: this.#now().toISOString(),
    };
    state.toolLog.push(logEntry);

    const context = {
      conversationId,
      callId: call.id,
      idempotencyKey,
      credentials: vault.scoped({ tool: tool.name, names: tool.credentials }),
      logger,
      waitForApproval: (request: ConstructorParameters<typeof ApprovalWait>[0]) => new ApprovalWait(request),
      report: (text: string) =>
        this.#o.onProgress?.({ callId: call.id, tool: tool.name, step: draft.record.step, text }),
      ...(approval ? { approval } : {}),
    };
    const maxAttempts = 1 + (tool.idempotent ? tool.retries : 0);
    let delay = this.#o.retryDelayMs ?? 100;
    for (let attempt = 1; ; attempt++) {
      draft.record.attempts = attempt;
      const result = await invokeHandler({
        tool,
        input: draft.input,
        context: { ...context, attempt },
        signal,
      });
      if (result.kind === 'ok' && result.data instanceof ApprovalWait)
        return this.#suspend(call, draft, result.data);
      if (result.kind === 'ok') return this.#succeed(draft, result.data);
      if (result.kind === 'cancelled') {
        return this.#fail(draft, 'CANCELLED', `The ${tool.name} call was cancelled.`, undefined, 'unknown');
      }
      if (result.kind === 'error') {
        logger.error(
          { err: result.error, agent, conversationId, tool: tool.name, callId: call.id, attempt },
          'tool handler failed',
        );
      } else {
        logger.warn({ agent, conversationId, tool: tool.name, callId: call.id, attempt }, 'tool timed out');
      }
      if (attempt < maxAttempts && !signal.aborted) {
        await sleep(delay, signal);
        delay = Math.min(delay * 2, 2_000);
        continue;
      }
      if (result.kind === 'timeout') {
        return this.#fail(
          draft,
          'TIMEOUT',
          `The ${tool.name} tool did not answer within ${tool.timeoutMs / 1000} s. ${tool.fallbackMessage}`,
          undefined,
          'unknown',
        );
      }
      return this.#fail(draft, 'TOOL_FAILED', tool.fallbackMessage, undefined, 'failed');
    }
  }

  async #succeed(draft: Draft, data: unknown): Promise<ToolCallOutcome> {
    const { vault, state, logger } = this.#o;
    const clean = redactValue(data ?? null, { secrets: vault.secrets(), byKey: false });
    let content: string;
    try {
      content = JSON.stringify(toolOk(clean));
    } catch (error) {
      logger.error({ err: error, tool: draft.record.tool }, 'tool result is not JSON-serialisable');
      return this.#fail(
        draft,
        'TOOL_FAILED',
        draft.tool?.fallbackMessage ?? 'The tool failed.',
        undefined,
        'unknown',
      );
    }
    if (draft.intentKey && !draft.record.replayed) {
      await this.#o.intents.finish({
        key: draft.intentKey,
        status: 'succeeded',
        result: clean,
        now: this.#now(),
      });
    }
    this.#closeLog(draft, 'succeeded');
    if (draft.input && typeof draft.input === 'object') Object.assign(state.slots.confirmed, draft.input);
    draft.record.status = 'succeeded';
    return this.#settle(draft, JSON.parse(content) as ToolResultEnvelope, content, false);
  }

  async #fail(
    draft: Draft,
    code: ToolErrorCode,
    message: string,
    hint?: string,
    intent: 'failed' | 'unknown' = 'failed',
  ): Promise<ToolCallOutcome> {
    if (draft.intentKey) {
      await this.#o.intents.finish({ key: draft.intentKey, status: intent, now: this.#now() });
    }
    this.#closeLog(draft, intent, code);
    draft.record.status = 'failed';
    draft.record.errorCode = code;
    const envelope = toolError(code, message, hint);
    return this.#settle(draft, envelope, JSON.stringify(envelope), REPEATABLE_FAILURES.has(code));
  }

  #settle(
    draft: Draft,
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

  #closeLog(draft: Draft, intent: 'succeeded' | 'failed' | 'unknown', errorCode?: string): void {
    const entry = this.#o.state.toolLog.findLast((item) => item.callId === draft.record.callId);
    if (!entry) return;
    entry.intent = intent;
    entry.finishedAt = this.#now().toISOString();
    if (errorCode) entry.errorCode = errorCode;
  }

  #report(span: AgentSpan, outcome: ToolCallOutcome): void {
    span.offerContent?.({
      [GEN_AI.toolCallArguments]: outcome.record.arguments,
      ...(outcome.kind === 'settled' ? { [GEN_AI.toolCallResult]: outcome.envelope } : {}),
    });
    span.setAttributes({
      [SWITCHBOARD.toolStatus]: outcome.record.status,
      [SWITCHBOARD.toolAttempts]: outcome.record.attempts,
      [SWITCHBOARD.approvalId]: outcome.record.approvalId,
    });
    if (outcome.kind === 'settled' && !outcome.envelope.ok) {
      span.setError(outcome.envelope.error.code, outcome.envelope.error.message);
    }
  }

  async #audit(outcome: ToolCallOutcome, startedAt: Date): Promise<void> {
    const { agent, conversationId, toolset, vault } = this.#o;
    const risk = toolset.get(outcome.record.tool)?.risk ?? 'unknown';
    await this.#write(
      toolCallAuditRecord({ outcome, agent, conversationId, risk, startedAt, secrets: vault.secrets() }),
    );
  }

  async #write(record: AuditRecord): Promise<void> {
    try {
      await this.#o.audit.write(record);
    } catch (error) {
      this.#o.logger.error({ err: error, record: record.kind }, 'audit sink failed to write a record');
    }
  }
}
