import { Role, TaskState } from '@a2a-js/sdk';
import {
  type AgentExecutor,
  type ExecutionEventBus,
  type OwnerResolver,
  type RequestContext,
  resolveUserScope,
  type ServerCallContext,
  type User,
} from '@a2a-js/sdk/server';
import { queueDeliveryOf } from '@switchboard/a2a-bullmq';
import {
  type Agent,
  type AgentRunResult,
  type AgentTracer,
  type ApprovalQuota,
  type AuditSink,
  type ChatModel,
  type ContextWindowOptions,
  CostMeter,
  type CredentialVault,
  type IntentStore,
  isAgentError,
  type Logger,
  Principal,
  principalKey,
  runAgent,
  stderrLogger,
  type ToolRouter,
} from '@switchboard/agent';
import { principalOf } from '@switchboard/identity';
import {
  CALLER_CONVERSATION_KEY,
  CONVERSATION_KEY,
  COST_KEY,
  callVariable,
  PRINCIPAL_KEY,
  PROGRESS_KEY,
  readMessage,
} from '@switchboard/protocol';
import { type ApprovalBoard, DEFAULT_MAX_PENDING_APPROVALS } from '../approvals/approval-board.ts';
import type { CostBook } from '../costs/cost-book.ts';
import { MemoryRunStateStore, type RunStateStore } from '../runs/run-state-store.ts';
import type { TaskLedger } from '../runs/task-ledger.ts';
import { DECIDE_ON_THE_BOARD, decisionsIn } from './message-decisions.ts';
import { progressOf } from './progress.ts';
import { publishResult } from './publish-result.ts';
import { TaskPublisher } from './task-publisher.ts';
import { TASK_STARTED_HOOK } from './task-started.ts';

/** Options of {@link SwitchboardAgentExecutor}. */
export interface AgentExecutorOptions {
  agent: Agent;
  /**
   * The agent to run each new request with, when it can change while serving (a supervisor whose
   * delegation tools follow the registry); default `agent`. It must keep `agent`'s name.
   */
  currentAgent?: () => Agent;
  model: ChatModel;
  /** Conversation state by A2A contextId (default: in memory, this process only). */
  runState?: RunStateStore;
  /**
   * Who may read approval requests whole (contact details unmasked) and speak for a caller's
   * conversation (default: operators and services, by the kind of principal they authenticated as,
   * and requests a service relayed, whose principal has a `via`).
   *
   * Approvals are decided on the approval board only. A decision in a message is taken from the
   * board's own delivery (`/admin/approvals`, in process), or from a trusted peer service — a
   * service principal, or a request a service relayed — handing on a decision its board took,
   * naming the operator (`decidedBy`) and the arguments' hash; the audit then records both. An
   * operator's or a user's message never decides: the approval stays pending.
   */
  trusted?: (user: User | undefined) => boolean;
  /** Where operators see what this agent's tasks wait for (default: nowhere). */
  approvals?: ApprovalBoard;
  /**
   * How many approvals one principal's requests may have pending on `approvals` at once (default
   * 20); a call that would wait beyond it is refused (`TOO_MANY_APPROVALS`), telling the model why.
   */
  maxPendingApprovals?: number;
  /** Whose task is whose, as the task store scopes them; recorded on the board (default: per user). */
  ownerResolver?: OwnerResolver;
  /**
   * Records the runs no queue would recover (requests that did not come over the queue binding), so
   * a crash leaves no task "working" for ever (default: none).
   */
  ledger?: TaskLedger;
  /**
   * Whose conversation a new task belongs to (default: tenant and user name), so two callers that
   * use the same contextId never see each other's history; the principal the task acts for is added
   * to it in any case. A task keeps the conversation it started with, so an operator who answers it
   * continues the user's conversation.
   */
  conversationScope?: (context: ServerCallContext) => string;
  intents?: IntentStore;
  audit?: AuditSink;
  tracer?: AgentTracer;
  logger?: Logger;
  credentials?: CredentialVault | Readonly<Record<string, string>>;
  context?: ContextWindowOptions;
  maxSteps?: number;
  /**
   * Narrows the tools each run offers the model (see `ToolRouter`); a request no tool is trusted
   * with ends `input-required` with a clarifying question, or `completed` saying what it cannot do.
   * Its index follows `currentAgent`'s toolset. Default: every permitted tool is offered.
   */
  router?: ToolRouter;
  /**
   * Also puts a completed task's answer in its final status message, for a client that reads
   * nothing else. Off by default: the answer is the `answer` artifact alone, since the A2A clients
   * of other frameworks (ADK, Mastra, the AI SDK's provider) render a status message's text and the
   * artifacts both, so with this on their users read every answer twice.
   */
  answerInStatus?: boolean;
  /**
   * Where each root request's cost is added up per agent per day, for the operators (default:
   * nowhere). A request a caller delegated here is not recorded: it is in its caller's cost. Every
   * run's cost, its delegations' included, is on its final task in any case (`COST_KEY`).
   */
  costBook?: CostBook;
}

// A request a service relayed for someone (a verified on-behalf-of assertion) counts as the
// service's: it hands on decisions from its own board and speaks for its own conversation.
const operatorsAndServices = (user: User | undefined) => {
  const principal = principalOf(user);
  return principal?.kind === 'operator' || principal?.kind === 'service' || (principal?.via.length ?? 0) > 0;
};

const defaultScope = (context: ServerCallContext) =>
  `${encodeURIComponent(context.tenant ?? '')}:${encodeURIComponent(context.user?.userName ?? '')}`;

/**
 * Runs a Switchboard agent behind the A2A SDK's `DefaultRequestHandler`. A request becomes a task
 * that moves submitted → working → completed, failed, canceled, rejected or input-required; each
 * step and tool call is published as a status update, and the answer as an artifact. A follow-up in
 * the same context continues the conversation; an input-required task resumes where it stopped.
 */
export class SwitchboardAgentExecutor implements AgentExecutor {
  readonly #o: AgentExecutorOptions;
  readonly #runState: RunStateStore;
  readonly #logger: Logger;
  readonly #running = new Map<string, AbortController>();
  /** Context ids of tasks seen here, for cancel events of tasks that are not running (bounded). */
  readonly #contexts = new Map<string, string>();

  constructor(options: AgentExecutorOptions) {
    this.#o = options;
    this.#runState = options.runState ?? new MemoryRunStateStore();
    this.#logger = options.logger ?? stderrLogger();
  }

  /** Tasks running in this process right now. */
  get runningTasks(): number {
    return this.#running.size;
  }

  async execute(requestContext: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId, userMessage } = requestContext;
    this.#remember(taskId, contextId);
    // A task runs its tools as the principal it started with: an operator who answers a user's
    // task (through the board) decides for it, but does not become who the tools act for.
    const principal =
      Principal.safeParse(requestContext.task?.metadata?.[PRINCIPAL_KEY]).data ??
      principalOf(requestContext.context.user);
    const owner = principal ? principalKey(principal) : '';
    // The conversation is the caller's (scope) and its principal's: a service that delegates for
    // many users holds one conversation per user, even when their context ids are the same.
    const conversation =
      (requestContext.task?.metadata?.[CONVERSATION_KEY] as string | undefined) ??
      `${(this.#o.conversationScope ?? defaultScope)(requestContext.context)}/${encodeURIComponent(owner)}/${contextId}`;
    const publisher = new TaskPublisher(bus, taskId, contextId);
    publisher.task(requestContext.task, userMessage, {
      [CONVERSATION_KEY]: conversation,
      ...(principal ? { [PRINCIPAL_KEY]: principal } : {}),
    });
    const controller = new AbortController();
    this.#running.set(taskId, controller);
    const started = callVariable(requestContext.context, TASK_STARTED_HOOK);
    const ledger = started ? undefined : this.#o.ledger;
    /** What the run costs, once it runs (a request refused before running costs nothing). */
    let meter: CostMeter | undefined;
    /** A trusted caller's delegation: its cost is in its caller's, so it is not booked here. */
    let delegated = false;
    try {
      // What can be refused without reading anything is refused at once; anything else goes to work
      // before the first await, so the task's first event (a new task, already working) is out before
      // the run waits on Redis.
      const fromUser = userMessage.role === Role.ROLE_USER;
      const { text, data } = readMessage(userMessage);
      // Who is trusted sees approval requests whole and speaks for a caller's conversation.
      const trusted = (this.#o.trusted ?? operatorsAndServices)(requestContext.context.user);
      const decisions = fromUser
        ? decisionsIn(data, requestContext, { trusted, logger: this.#logger })
        : { accepted: [], refused: 0 };
      const decisive = decisions.accepted.length > 0 || decisions.refused > 0;
      const refusal = !fromUser
        ? 'The message must come from the user: send it with role "ROLE_USER".'
        : !text && !decisive
          ? 'The message has no text to act on. Send the request as a text part.'
          : undefined;
      if (refusal) publisher.finish(TaskState.TASK_STATE_REJECTED, refusal);
      // Going to work is said by the state alone: a status message would be read as reply text.
      else publisher.status(TaskState.TASK_STATE_WORKING, undefined);
      await started?.({ taskId, contextId, messageId: userMessage.messageId });
      await ledger?.begin({
        taskId,
        contextId,
        owner: (this.#o.ownerResolver ?? resolveUserScope)(requestContext.context),
        tenant: requestContext.context.tenant ?? '',
      });
      if (refusal) return;
      const stored = await this.#runState.load(conversation);
      if (
        decisions.accepted.length === 0 &&
        decisions.refused > 0 &&
        !stored?.state.pendingApprovals.length
      ) {
        publisher.finish(TaskState.TASK_STATE_REJECTED, `${DECIDE_ON_THE_BOARD} Nothing here waits for one.`);
        return;
      }
      const caller = userMessage.metadata?.[CALLER_CONVERSATION_KEY];
      // Intent records are never shared across principals: a delegating caller's are scoped to its
      // conversation and the principal it works for, anyone else's to this task's conversation.
      delegated = trusted && typeof caller === 'string' && caller !== '';
      const intentScope = delegated ? `caller:${owner}:${caller}` : conversation;
      // A caller that reads only tool progress (a delegating agent) is not sent the step lines.
      const steps = userMessage.metadata?.[PROGRESS_KEY] !== 'tools';
      const agent = this.#o.currentAgent?.() ?? this.#o.agent;
      meter = new CostMeter({
        agent: agent.name,
        queueWaitMs: queueDeliveryOf(requestContext.context)?.queueWaitMs ?? 0,
      });
      const result = await runAgent({
        agent,
        model: this.#o.model,
        // A message that carries a decision (taken or refused) answers the approval; its text must
        // not withdraw it.
        ...(text && !decisive ? { input: text } : {}),
        ...(stored ? { history: stored.messages, state: stored.state } : {}),
        conversationId: contextId,
        ...(principal ? { principal } : {}),
        intentScope,
        decisions: decisions.accepted,
        signal: controller.signal,
        logger: this.#logger,
        // Callers get whole answers (an artifact, status lines), never text as it is written.
        streamModel: false,
        onEvent: (event) => {
          meter?.observe(event);
          if (event.type === 'step-started' && !steps) return;
          const progress = progressOf(event);
          if (!progress) return;
          // A step starting and what a tool reports as it runs (a delegate's progress, passed on) are
          // streamed, not stored in the task's history; a tool's start and end are, as its record.
          publisher.status(TaskState.TASK_STATE_WORKING, progress.text, progress.metadata, [], {
            transient: event.type === 'tool-progress' || event.type === 'step-started',
          });
        },
        ...this.#runOptions(),
        ...this.#quota(principal && principalKey(principal)),
      });
      await this.#runState.save(conversation, { messages: result.messages, state: result.state });
      await this.#postApprovals(requestContext, result, principal && principalKey(principal));
      publishResult(publisher, result, {
        answerInStatus: this.#o.answerInStatus ?? false,
        refusedDecision: decisions.refused > 0,
        operator: trusted,
        cost: { [COST_KEY]: meter.cost },
      });
    } catch (error) {
      this.#logger.error({ err: error, taskId, contextId, agent: this.#o.agent.name }, 'agent run failed');
      const why =
        isAgentError(error) && error.party === 'dependency'
          ? 'The agent’s model is unavailable right now. Try again in a moment.'
          : 'The agent could not complete this request because of an internal error.';
      publisher.finish(
        controller.signal.aborted ? TaskState.TASK_STATE_CANCELED : TaskState.TASK_STATE_FAILED,
        why,
        [],
        meter ? { [COST_KEY]: meter.cost } : {},
      );
    } finally {
      this.#running.delete(taskId);
      // A root request's run is booked once, when it ends; a delegated one is in its caller's cost.
      if (meter && !delegated) await this.#book(taskId, meter);
      await ledger
        ?.end(taskId)
        .catch((error: unknown) => this.#logger.warn({ err: error, taskId }, 'task ledger end failed'));
    }
  }

  /** Adds a finished root run's cost to the cost book; a book that fails loses the entry, not the task. */
  async #book(taskId: string, meter: CostMeter): Promise<void> {
    try {
      await this.#o.costBook?.record({ taskId, at: new Date(), cost: meter.cost });
    } catch (error) {
      this.#logger.warn(
        { err: error, taskId },
        'cost book could not record the request; its day totals miss it',
      );
    }
  }

  /** Aborts every task running in this process (a drain that ran out of time); returns how many. */
  abortAll(): number {
    for (const controller of this.#running.values()) controller.abort();
    return this.#running.size;
  }

  /** Aborts a task if it runs in this process; true when it did. Used for cancels from other replicas. */
  abort(taskId: string): boolean {
    const controller = this.#running.get(taskId);
    controller?.abort();
    return controller !== undefined;
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    const controller = this.#running.get(taskId);
    if (controller) {
      controller.abort();
      return;
    }
    // Not running here (it waits for input, or another replica runs it): settle it as canceled.
    const publisher = new TaskPublisher(bus, taskId, this.#contexts.get(taskId) ?? '');
    publisher.finish(TaskState.TASK_STATE_CANCELED, 'The task was canceled.');
  }

  #remember(taskId: string, contextId: string): void {
    this.#contexts.delete(taskId);
    this.#contexts.set(taskId, contextId);
    if (this.#contexts.size > 10_000) {
      const oldest = this.#contexts.keys().next().value;
      if (oldest !== undefined) this.#contexts.delete(oldest);
    }
  }

  #runOptions() {
    const { intents, audit, tracer, credentials, context, maxSteps, router } = this.#o;
    return {
      ...(intents ? { intents } : {}),
      ...(audit ? { audit } : {}),
      ...(tracer ? { tracer } : {}),
      ...(credentials ? { credentials } : {}),
      ...(context ? { context } : {}),
      ...(maxSteps ? { maxSteps } : {}),
      ...(router ? { router } : {}),
    };
  }

  /**
   * Caps the approvals one principal has pending on the board: a call that would wait beyond the
   * cap is refused with our words, not asked. Checked before asking, so concurrent runs of one
   * principal can each pass it once.
   */
  #quota(requestedBy: string | undefined): { approvalQuota?: ApprovalQuota } {
    const board = this.#o.approvals;
    const max = this.#o.maxPendingApprovals ?? DEFAULT_MAX_PENDING_APPROVALS;
    if (!board || !requestedBy) return {};
    return {
      approvalQuota: {
        admit: async () => {
          const waiting = await board.pendingCount(requestedBy);
          if (waiting < max) return undefined;
          return {
            message: `This needs an operator's approval, but ${waiting} approvals already wait for operators on this user's requests (at most ${max} may wait). It was not asked and not done.`,
            hint: 'Tell the user plainly that it was not done: operators must decide their waiting requests first. Do not try it again now.',
          };
        },
      },
    };
  }

  /** Keeps the operators' board in step with what this task waits for now, and who asked for it. */
  async #postApprovals(
    requestContext: RequestContext,
    result: AgentRunResult,
    requestedBy: string | undefined,
  ): Promise<void> {
    const board = this.#o.approvals;
    if (!board) return;
    const { taskId, contextId, context } = requestContext;
    try {
      await board.sync({
        taskId,
        contextId,
        owner: (this.#o.ownerResolver ?? resolveUserScope)(context),
        tenant: context.tenant ?? '',
        requestedBy,
        pending: result.pendingApprovals,
      });
    } catch (error) {
      this.#logger.error(
        { err: error, taskId, approvals: result.pendingApprovals.map((request) => request.id) },
        'approval board could not be updated; operators will not see these approvals',
      );
    }
  }
}
