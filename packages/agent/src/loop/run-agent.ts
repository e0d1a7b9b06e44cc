import { randomUUID } from 'node:crypto';
import { GEN_AI, genAiSpanName, SWITCHBOARD } from '@switchboard/semconv';
import { ContextWindow, type ContextWindowOptions } from '../context/context-window.ts';
import { assertValidHistory } from '../context/history-check.ts';
import { AgentError, isAgentError } from '../errors.ts';
import type { ChatModel } from '../model/chat-model.ts';
import type { AssistantMessage, ChatMessage, TokenUsage, ToolCall } from '../model/messages.ts';
import { addUsage, emptyUsage } from '../model/messages.ts';
import type { AuditSink } from '../observe/audit.ts';
import { type Logger, stderrLogger } from '../observe/logger.ts';
import { type AgentTracer, noopTracer } from '../observe/tracer.ts';
import type { ApprovalDecision, ApprovalQuota, ApprovalRequest, Approver } from '../policy/approvals.ts';
import { CredentialVault } from '../policy/credentials.ts';
import type { Principal } from '../policy/principal.ts';
import type { RoutingDecision } from '../routing/routing-decision.ts';
import type { ToolRouter } from '../routing/tool-router.ts';
import { type AgentState, type AgentStatus, createAgentState } from '../state/agent-state.ts';
import { type IntentStore, MemoryIntentStore } from '../state/intents.ts';
import { ToolRunner } from '../tools/runner/tool-runner.ts';
import type { ToolCallOutcome, ToolCallRecord } from '../tools/tool-call-record.ts';
import type { ToolResultEnvelope } from '../tools/tool-result.ts';
import type { Agent } from './agent.ts';
import { callModel } from './call-model.ts';
import type { AgentEvent, StepRecord, StopReason } from './events.ts';
import { routeTurn, routingAttributes } from './route-turn.ts';
import { stopMessages } from './stop-messages.ts';

/** Options of {@link runAgent}. */
export interface RunAgentOptions {
  agent: Agent;
  model: ChatModel;
  /** The new user message. Optional when resuming a run that waits for an approval. */
  input?: string;
  /** The conversation so far (`result.messages` of the previous run), without the system prompt. */
  history?: readonly ChatMessage[];
  /** The task state of the previous run, to resume it. */
  state?: AgentState;
  /** Default: the state's, else a new UUID. Becomes `gen_ai.conversation.id`. */
  conversationId?: string;
  /**
   * Operator decisions on pending approvals (when resuming). An approval runs its call only while
   * the call's arguments have the `argumentsHash` it approved; otherwise it is refused (audited as
   * `approval_mismatch`) and the request waits again.
   */
  decisions?: readonly ApprovalDecision[];
  /** Decides approvals as they arise; without one, dangerous calls wait and the run stops. */
  approver?: Approver;
  /** Bounds the approvals that may wait (default: none); a call over it is refused, not asked. */
  approvalQuota?: ApprovalQuota;
  /** How the history is trimmed and what memory is added before each model call. */
  context?: ContextWindow | ContextWindowOptions;
  /** Model calls at most (default 10). */
  maxSteps?: number;
  /** Stop when the same tool has failed this many times in a row (default 2). */
  maxToolFailures?: number;
  signal?: AbortSignal;
  /** Progress events, as they happen. Exceptions thrown here are logged and ignored. */
  onEvent?: (event: AgentEvent) => void;
  /**
   * Stream each model call, so its text arrives as `text-delta` events (default true). False: each
   * call is one complete answer (`ChatModel.generate`) and no `text-delta` is emitted, which costs
   * less where nobody reads the answer as it is written (a service whose callers get whole answers).
   */
  streamModel?: boolean;
  /**
   * Who is asking: every tool receives it as `context.principal` and decides access on it. Without
   * one, tools that guard data treat the caller as having no access.
   */
  principal?: Principal;
  /** Secrets handed to the tools that declare them; a vault or a plain record. */
  credentials?: CredentialVault | Readonly<Record<string, string>>;
  /** Intent records of non-idempotent tools (default: in memory, this run only). */
  intents?: IntentStore;
  /**
   * What intent records are scoped to (default: the conversation): a delegate agent is given its
   * caller's conversation, so the same action asked for again in a new delegation is still known.
   */
  intentScope?: string;
  audit?: AuditSink;
  tracer?: AgentTracer;
  logger?: Logger;
  /** First retry delay of idempotent tools (default 100 ms). */
  retryDelayMs?: number;
  now?: () => Date;
  /**
   * Narrows the tools offered to the model to the few the request needs (see `ToolRouter`); when no
   * tool is trusted with the request, the run stops with `clarify` or `unsupported` instead of
   * guessing. Default: every permitted tool is offered.
   */
  router?: ToolRouter;
}

/** What a run produced and how it ended. */
export interface AgentRunResult {
  stopReason: StopReason;
  /** The answer for the user: the model's final text, or our plain explanation of why it stopped. */
  output: string;
  conversationId: string;
  /** The whole conversation after the run, without the system prompt: pass it as `history` next time. */
  messages: ChatMessage[];
  steps: StepRecord[];
  /** Every tool call of the run, in order. */
  toolCalls: ToolCallRecord[];
  usage: TokenUsage;
  state: AgentState;
  pendingApprovals: ApprovalRequest[];
  /** The tool router's decision for this run's request, when a router was given. */
  routing?: RoutingDecision;
}

const STATUS_OF: Record<StopReason, AgentStatus> = {
  model: 'completed',
  approval: 'input_required',
  maxSteps: 'failed',
  failures: 'failed',
  canceled: 'canceled',
  clarify: 'input_required',
  unsupported: 'completed',
};

/**
 * Runs an agent: calls the model with the agent's tool declarations, runs the tools it asks for
 * (through the executor: validation, policy, approvals, timeouts, retries), and repeats until the
 * model answers or a limit stops it. Never throws for anything a tool or the model's choices did;
 * throws `AgentError` for a malformed history, bad options, or a model endpoint that fails.
 *
 * @example
 * import { OfflineModel } from '@switchboard/offline-model';
 *
 * const result = await runAgent({ agent, model: new OfflineModel(), input: 'Where is order R-2041?' });
 * console.log(result.output, result.toolCalls);
 */
export async function runAgent(options: RunAgentOptions): Promise<AgentRunResult> {
  const { agent, model, maxSteps = 10, maxToolFailures = 2, tracer = noopTracer() } = options;
  if (!agent?.toolset || !model?.stream) {
    throw new AgentError('INVALID_OPTIONS', {
      message: 'runAgent needs an agent (from defineAgent) and a model (a ChatModel such as OfflineModel).',
    });
  }
  for (const [name, value] of [
    ['maxSteps', maxSteps],
    ['maxToolFailures', maxToolFailures],
  ] as const) {
    if (!Number.isInteger(value) || value < 1) {
      throw new AgentError('INVALID_OPTIONS', {
        message: `${name} must be a whole number of at least 1 (got ${value}).`,
      });
    }
  }
  const conversationId = options.conversationId ?? options.state?.conversationId ?? randomUUID();
  const attributes = {
    [GEN_AI.operationName]: 'invoke_agent',
    [GEN_AI.agentName]: agent.name,
    [GEN_AI.conversationId]: conversationId,
    [GEN_AI.providerName]: model.provider,
    [GEN_AI.requestModel]: model.modelId,
  };
  return tracer.inSpan(
    {
      operation: 'invoke_agent',
      name: genAiSpanName({ operation: 'invoke_agent', target: agent.name }),
      attributes,
    },
    async (span) => {
      const result = await new AgentRun(options, conversationId, maxSteps, maxToolFailures).execute();
      span.setAttributes({
        [SWITCHBOARD.agentStopReason]: result.stopReason,
        [GEN_AI.usageInputTokens]: result.usage.promptTokens,
        [GEN_AI.usageOutputTokens]: result.usage.completionTokens,
        ...(result.routing ? routingAttributes(result.routing) : {}),
      });
      return result;
    },
  );
}

class AgentRun {
  readonly #o: RunAgentOptions;
  readonly #conversationId: string;
  readonly #maxSteps: number;
  readonly #maxToolFailures: number;
  readonly #logger: Logger;
  readonly #signal: AbortSignal;
  readonly #context: ContextWindow;
  readonly #state: AgentState;
  readonly #runner: ToolRunner;
  readonly #messages: ChatMessage[];
  readonly #steps: StepRecord[] = [];
  readonly #toolCalls: ToolCallRecord[] = [];
  readonly #failures = new Map<string, { count: number; last: ToolResultEnvelope | undefined }>();
  #usage = emptyUsage();
  /** An approval of this run came for other arguments than its call has now, and was refused. */
  #mismatched = false;
  #routing: RoutingDecision | undefined;

  constructor(options: RunAgentOptions, conversationId: string, maxSteps: number, maxToolFailures: number) {
    this.#o = options;
    this.#conversationId = conversationId;
    this.#maxSteps = maxSteps;
    this.#maxToolFailures = maxToolFailures;
    this.#logger = options.logger ?? stderrLogger();
    this.#signal = options.signal ?? new AbortController().signal;
    this.#context =
      options.context instanceof ContextWindow
        ? options.context
        : new ContextWindow({ logger: this.#logger, ...options.context });
    this.#state = options.state
      ? structuredClone(options.state)
      : createAgentState({ agent: options.agent.name, conversationId });
    this.#state.status = 'working';
    this.#messages = [...(options.history ?? [])];
    assertValidHistory(this.#messages, { allowPendingCalls: true });
    const vault =
      options.credentials instanceof CredentialVault
        ? options.credentials
        : new CredentialVault({ values: options.credentials ?? {} });
    this.#runner = new ToolRunner({
      agent: options.agent.name,
      conversationId,
      ...(options.intentScope ? { intentScope: options.intentScope } : {}),
      toolset: options.agent.toolset,
      permitted: options.agent.permitted,
      state: this.#state,
      vault,
      principal: options.principal,
      intents: options.intents ?? new MemoryIntentStore(),
      audit: options.audit ?? { write: () => {} },
      tracer: options.tracer ?? noopTracer(),
      logger: this.#logger,
      decisions: new Map((options.decisions ?? []).map((decision) => [decision.approvalId, decision])),
      approver: options.approver,
      approvalQuota: options.approvalQuota,
      signal: this.#signal,
      onProgress: (progress) => this.#emit({ type: 'tool-progress', ...progress }),
      onCost: (reported) => this.#emit({ type: 'tool-cost', ...reported }),
      ...(options.retryDelayMs === undefined ? {} : { retryDelayMs: options.retryDelayMs }),
      ...(options.now ? { now: options.now } : {}),
    });
  }

  async execute(): Promise<AgentRunResult> {
    const { input } = this.#o;
    const pending = this.#pendingCalls();
    if (pending.length > 0) {
      if (input !== undefined) await this.#withdraw(pending);
      else {
        const waiting = await this.#runCalls(pending, this.#state.step);
        if (waiting.length > 0) return this.#finish('approval', this.#approvalMessage(waiting));
        const stuck = this.#stuckTool();
        if (stuck)
          return this.#finish('failures', stopMessages.failures(stuck.tool, stuck.count, stuck.last));
      }
    }
    if (input !== undefined) this.#messages.push({ role: 'user', content: input });
    if (!this.#messages.some((message) => message.role === 'user')) {
      throw new AgentError('INVALID_OPTIONS', {
        message: 'runAgent needs an input, or a history that holds a user message to answer.',
      });
    }

    if (this.#o.router) {
      const routed = await routeTurn({
        router: this.#o.router,
        agent: this.#o.agent,
        messages: this.#messages,
        logger: this.#logger,
        signal: this.#signal,
      });
      this.#routing = routed.decision;
      if (routed.stop) {
        this.#messages.push({ role: 'assistant', content: routed.stop.output });
        return this.#finish(routed.stop.reason, routed.stop.output);
      }
    }
    for (let taken = 0; taken < this.#maxSteps; taken++) {
      if (this.#signal.aborted) return this.#finish('canceled', stopMessages.canceled());
      const step = ++this.#state.step;
      const assistant = await this.#step(step);
      if (!assistant) return this.#finish('canceled', stopMessages.canceled());
      const calls = assistant.tool_calls ?? [];
      if (calls.length === 0) return this.#finish('model', assistant.content ?? '');
      const waiting = await this.#runCalls(calls, step);
      if (this.#signal.aborted) return this.#finish('canceled', stopMessages.canceled());
      if (waiting.length > 0) return this.#finish('approval', this.#approvalMessage(waiting));
      const stuck = this.#stuckTool();
      if (stuck) return this.#finish('failures', stopMessages.failures(stuck.tool, stuck.count, stuck.last));
    }
    return this.#finish('maxSteps', stopMessages.maxSteps(this.#maxSteps));
  }

  /** One model call; undefined when it was canceled. */
  async #step(step: number): Promise<AssistantMessage | undefined> {
    const { agent, model } = this.#o;
    const started = performance.now();
    this.#emit({ type: 'step-started', step });
    const offered = this.#routing?.candidates.map((candidate) => candidate.tool) ?? [...agent.permitted];
    const tools = agent.toolset.declarations(offered.filter((name) => agent.permitted.has(name)));
    const prepared = await this.#context.prepare({
      messages: [{ role: 'system', content: agent.instructions }, ...this.#messages],
      conversationId: this.#conversationId,
      tools,
      signal: this.#signal,
    });
    let response: Awaited<ReturnType<typeof callModel>>;
    try {
      response = await callModel({
        model,
        request: {
          messages: prepared.messages,
          ...(tools.length > 0 ? { tools, toolChoice: 'auto' as const } : {}),
          ...agent.modelSettings,
          signal: this.#signal,
        },
        tracer: this.#o.tracer ?? noopTracer(),
        logger: this.#logger,
        conversationId: this.#conversationId,
        agent: agent.name,
        ...(this.#o.streamModel === false
          ? {}
          : { onTextDelta: (delta: string) => this.#emit({ type: 'text-delta', step, delta }) }),
      });
    } catch (error) {
      if (isAgentError(error, 'ABORTED') || this.#signal.aborted) return undefined;
      this.#state.status = 'failed';
      throw error;
    }
    this.#usage = addUsage(this.#usage, response.usage);
    this.#messages.push(response.message);
    const record: StepRecord = {
      step,
      finishReason: response.finishReason,
      usage: response.usage,
      text: response.message.content,
      toolCallIds: (response.message.tool_calls ?? []).map((call) => call.id),
      droppedTurns: prepared.droppedTurns,
      durationMs: Math.round(performance.now() - started),
    };
    this.#steps.push(record);
    this.#emit({ type: 'step-finished', step, record });
    return response.message;
  }

  /** Runs calls concurrently, appends their results in call order, returns the approvals still awaited. */
  async #runCalls(calls: readonly ToolCall[], step: number): Promise<ApprovalRequest[]> {
    const outcomes = await Promise.all(
      calls.map((call) => {
        this.#emit({
          type: 'tool-call-started',
          step,
          callId: call.id,
          tool: call.function.name,
          arguments: call.function.arguments,
        });
        return this.#runner.run(call, step);
      }),
    );
    const waiting: ApprovalRequest[] = [];
    for (const outcome of outcomes) {
      this.#toolCalls.push(outcome.record);
      if (outcome.kind === 'awaiting_approval') {
        waiting.push(outcome.request);
        if (outcome.mismatch) this.#mismatched = true;
        this.#emit({ type: 'approval-required', step, request: outcome.request });
        this.#emit({ type: 'tool-call-finished', step, record: outcome.record, result: undefined });
        continue;
      }
      this.#messages.push(outcome.message);
      this.#count(outcome);
      this.#emit({ type: 'tool-call-finished', step, record: outcome.record, result: outcome.envelope });
    }
    return waiting;
  }

  #count(outcome: Extract<ToolCallOutcome, { kind: 'settled' }>): void {
    const tool = outcome.record.tool;
    if (outcome.envelope.ok) this.#failures.delete(tool);
    else if (outcome.countsAsFailure) {
      const count = (this.#failures.get(tool)?.count ?? 0) + 1;
      this.#failures.set(tool, { count, last: outcome.envelope });
    }
  }

  #stuckTool(): { tool: string; count: number; last: ToolResultEnvelope | undefined } | undefined {
    for (const [tool, { count, last }] of this.#failures) {
      if (count >= this.#maxToolFailures) return { tool, count, last };
    }
    return undefined;
  }

  #approvalMessage(waiting: readonly ApprovalRequest[]): string {
    return stopMessages.approval(waiting, { mismatched: this.#mismatched });
  }

  /** Calls of the last assistant message that have no result yet (a run that stopped for approval). */
  #pendingCalls(): ToolCall[] {
    const index = this.#messages.findLastIndex((message) => message.role === 'assistant');
    const last = this.#messages[index];
    if (last?.role !== 'assistant') return [];
    const answered = new Set(
      this.#messages
        .slice(index + 1)
        .flatMap((message) => (message.role === 'tool' ? [message.tool_call_id] : [])),
    );
    return (last.tool_calls ?? []).filter((call) => !answered.has(call.id));
  }

  /** The user moved on: calls still waiting for approval are answered as withdrawn, never run. */
  async #withdraw(calls: readonly ToolCall[]): Promise<void> {
    for (const call of calls) {
      const request = this.#state.pendingApprovals.find((pending) => pending.toolCallId === call.id);
      const action = request?.action ?? `the ${call.function.name} action`;
      const outcome = await this.#runner.withdraw(call, this.#state.step, stopMessages.withdrawn(action));
      if (outcome.kind === 'settled') this.#messages.push(outcome.message);
      this.#toolCalls.push(outcome.record);
    }
  }

  #finish(stopReason: StopReason, output: string): AgentRunResult {
    this.#state.status = STATUS_OF[stopReason];
    if (stopReason !== 'approval') this.#state.slots.pending = {};
    this.#emit({ type: 'run-finished', stopReason });
    return {
      stopReason,
      output,
      conversationId: this.#conversationId,
      messages: this.#messages,
      steps: this.#steps,
      toolCalls: this.#toolCalls,
      usage: this.#usage,
      state: this.#state,
      pendingApprovals: [...this.#state.pendingApprovals],
      ...(this.#routing ? { routing: this.#routing } : {}),
    };
  }

  #emit(event: AgentEvent): void {
    try {
      this.#o.onEvent?.(event);
    } catch (error) {
      this.#logger.warn({ err: error, event: event.type }, 'onEvent listener threw; ignored');
    }
  }
}
