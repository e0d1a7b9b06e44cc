import { TaskState } from '@a2a-js/sdk';
import type {
  AgentExecutionEvent,
  AgentExecutor,
  ExecutionEventBus,
  RequestContext,
} from '@a2a-js/sdk/server';
import { type Agent, type ChatMessage, type Logger, silentLogger, type ToolCall } from '@switchboard/agent';
import type { RunStateStore } from '@switchboard/host';
import { principalOf } from '@switchboard/identity';
import { APPROVAL_DECISION_KEY, boardDeciderOf, CONVERSATION_KEY, readMessage } from '@switchboard/protocol';
import { activeTraceId } from './active-trace.ts';
import type { ShadowCopyStream } from './shadow-copy-stream.ts';
import { ShadowOutbox } from './shadow-outbox.ts';
import type { ShadowPairStore } from './shadow-pair-store.ts';
import type { ShadowCopy, ShadowSide, ShadowToolCall } from './shadow-records.ts';
import { inShadowShare } from './shadow-share.ts';
import { riskIn } from './tool-risk-of.ts';

/** Options of {@link ShadowTap}. */
export interface ShadowTapOptions {
  /** The live agent (its tools' risks classify the live calls); a function when it changes while serving. */
  agent: Agent | (() => Agent);
  /** The label of what the shadow runs, e.g. `gpt-5-mini` or `prompt-v2`; recorded with each pair. */
  candidate: string;
  /** What the live agent runs, recorded as the live side's `by`: its model id (default: the agent's name). */
  liveModel?: string;
  /** The share of new live tasks copied, 0 to 1 (1: all). */
  share: number;
  copies: ShadowCopyStream;
  pairs: ShadowPairStore;
  /** The live host's run state, where the live run's write arguments are read back (default: none). */
  runState?: RunStateStore;
  /** Copies and records that may wait to be written before new ones are dropped (default 5,000). */
  capacity?: number;
  logger?: Logger;
}

/**
 * Copies live requests to an agent's shadow and records what the live run did, without the live
 * path waiting for either: a new task in the share is copied as it is accepted, and when the live
 * run ends its side of the pair (answer, tools, write arguments, latency, trace id) is written, both
 * through a bounded {@link ShadowOutbox}. Give `wrap(executor)` to the request handler.
 */
export class ShadowTap {
  readonly #o: ShadowTapOptions;
  readonly #outbox: ShadowOutbox;

  constructor(options: ShadowTapOptions) {
    this.#o = options;
    this.#outbox = new ShadowOutbox({
      ...(options.capacity ? { capacity: options.capacity } : {}),
      logger: options.logger ?? silentLogger(),
    });
  }

  /** Copies dropped (outbox full) or failed (Redis), and waiting. */
  get counts() {
    return this.#outbox.counts;
  }

  /** Resolves when every copy and record handed off so far is written. */
  flush(): Promise<void> {
    return this.#outbox.flush();
  }

  /** The executor, tapped: runs exactly as before, with the copy and the live record on the side. */
  wrap(executor: AgentExecutor): AgentExecutor {
    return {
      execute: (context, bus) => this.#execute(executor, context, bus),
      cancelTask: (taskId, bus) => executor.cancelTask(taskId, bus),
    };
  }

  async #execute(executor: AgentExecutor, context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { text, data } = readMessage(context.userMessage);
    const agent = typeof this.#o.agent === 'function' ? this.#o.agent() : this.#o.agent;
    // An operator's decision on a task that waited for one: what the operator had done is the human
    // baseline of the task's pair (if it has one).
    const operator = context.task ? decidingOperator(context, data) : undefined;
    if (operator) return this.#observe(executor, context, bus, { role: 'operator', agent, by: operator });
    // Only new requests: a continuation (an answer to a question) is not a new request.
    if (context.task || !text || !inShadowShare(context.taskId, this.#o.share)) {
      return executor.execute(context, bus);
    }
    const principal = principalOf(context.context.user);
    const copy: ShadowCopy = {
      taskId: context.taskId,
      contextId: context.contextId,
      agent: agent.name,
      text,
      ...(principal ? { principal } : {}),
      acceptedAt: new Date().toISOString(),
    };
    const seen = new LiveEvents();
    const copied = this.#outbox.offer(async () => {
      await this.#o.pairs.open(copy, this.#o.candidate);
      // The task event came first (the executor publishes it before it awaits anything): the
      // conversation's earlier turns go with the copy, so the shadow answers in the same context.
      const history = await this.#historyBefore(seen.conversation, text);
      await this.#o.copies.add({ ...copy, ...(history.length > 0 ? { history } : {}) });
    });
    return this.#observe(executor, context, bus, {
      role: 'live',
      agent,
      by: this.#o.liveModel ?? agent.name,
      after: copied,
      seen,
    });
  }

  /** The conversation as it stood before this request (without it, if the live run saved it already). */
  async #historyBefore(conversation: string | undefined, text: string): Promise<ChatMessage[]> {
    if (!conversation || !this.#o.runState) return [];
    const messages = (await this.#o.runState.load(conversation))?.messages ?? [];
    const asked = messages.findLastIndex((message) => message.role === 'user' && message.content === text);
    return asked >= 0 && asked === messages.findLastIndex((message) => message.role === 'user')
      ? messages.slice(0, asked)
      : messages;
  }

  /** Runs the task as always, and records what it did as one side of its pair once it ends. */
  async #observe(
    executor: AgentExecutor,
    context: RequestContext,
    bus: ExecutionEventBus,
    {
      role,
      agent,
      by,
      after,
      seen = new LiveEvents(),
    }: { role: 'live' | 'operator'; agent: Agent; by: string; after?: Promise<void>; seen?: LiveEvents },
  ): Promise<void> {
    const listener = (event: AgentExecutionEvent) => seen.add(event);
    bus.on('event', listener);
    const traceId = activeTraceId();
    const t0 = performance.now();
    try {
      await executor.execute(context, bus);
    } finally {
      bus.off('event', listener);
      const latencyMs = Math.round(performance.now() - t0);
      this.#outbox.offer(async () => {
        // Into the pair its copy opened: the live run may end before the copy is written.
        await after;
        const side = await seen.side({ role, agent, by, runState: this.#o.runState, latencyMs, traceId });
        await this.#o.pairs.record(context.taskId, side);
      });
    }
  }
}

/**
 * Who decided, when a continuation carries an approval decision the executor takes: an operator on
 * the board, or one a peer service's board named. Anything else decides nothing (the executor ignores it).
 */
function decidingOperator(context: RequestContext, data: readonly unknown[]): string | undefined {
  const decision = data.find(
    (item): item is Record<string, { decidedBy?: unknown }> =>
      typeof item === 'object' && item !== null && APPROVAL_DECISION_KEY in item,
  )?.[APPROVAL_DECISION_KEY];
  if (!decision) return undefined;
  const board = boardDeciderOf(context.context);
  if (board) return board.id;
  const from = principalOf(context.context.user);
  const fromService = from?.kind === 'service' || (from?.via.length ?? 0) > 0;
  return fromService && typeof decision.decidedBy === 'string' ? decision.decidedBy : undefined;
}

/** What a run published: its conversation, tools, final state and answer. */
class LiveEvents {
  conversation: string | undefined;
  readonly tools: { callId: string; tool: string; status: string }[] = [];
  state: string = 'unknown';
  answer = '';
  statusText = '';

  add(event: AgentExecutionEvent): void {
    if (event.kind === 'task') {
      const conversation = event.data.metadata?.[CONVERSATION_KEY];
      if (typeof conversation === 'string') this.conversation = conversation;
    } else if (event.kind === 'statusUpdate') {
      const meta = event.data.status?.message?.metadata ?? {};
      if (meta.event === 'tool-finished') {
        this.tools.push({
          callId: String(meta.callId),
          tool: String(meta.tool),
          status: String(meta.status),
        });
      }
      const state = event.data.status?.state;
      if (state !== undefined) this.state = stateName(state);
      const message = event.data.status?.message;
      if (message) this.statusText = readMessage(message).text;
    } else if (event.kind === 'artifactUpdate') {
      this.answer = readMessage({ parts: event.data.artifact?.parts ?? [] } as never).text;
    }
  }

  async side({
    role,
    agent,
    by,
    runState,
    latencyMs,
    traceId,
  }: {
    role: 'live' | 'operator';
    agent: Agent;
    by: string;
    runState: RunStateStore | undefined;
    latencyMs: number;
    traceId: string | undefined;
  }): Promise<ShadowSide> {
    const calls = new Map<string, ToolCall>();
    if (runState && this.conversation) {
      const stored = await runState.load(this.conversation);
      for (const message of stored?.messages ?? []) {
        if (message.role === 'assistant')
          for (const call of message.tool_calls ?? []) calls.set(call.id, call);
      }
    }
    const tools = this.tools.map(({ callId, tool, status }): ShadowToolCall => {
      const risk = riskIn(agent, tool);
      const raw = calls.get(callId)?.function.arguments;
      const parsed = risk === 'read' || raw === undefined ? undefined : validated(agent, tool, raw);
      return { tool, risk, status, ...(parsed === undefined ? {} : { arguments: parsed }) };
    });
    return {
      role,
      by,
      answer: this.answer || this.statusText,
      outcome: this.state,
      tools,
      latencyMs,
      ...(traceId ? { traceId } : {}),
      finishedAt: new Date().toISOString(),
    };
  }
}

/** The arguments as the tool's schema reads them: what the live action was given. */
function validated(agent: Agent, tool: string, raw: string): unknown {
  try {
    const parsed = agent.toolset.get(tool)?.input.safeParse(JSON.parse(raw));
    return parsed?.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function stateName(state: TaskState): string {
  return (TaskState[state] ?? String(state)).replace(/^TASK_STATE_/, '').toLowerCase();
}
