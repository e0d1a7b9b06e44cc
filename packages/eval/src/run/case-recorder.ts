import type { ToolRisk } from '@switchboard/agent';

/** One invocation of a worker tool's handler, with the arguments it received (validated). */
export interface HandlerRun {
  agent: string;
  tool: string;
  risk: ToolRisk;
  conversationId: string;
  callId: string;
  /** The validated input the handler received. */
  input: unknown;
  /** Whether a fault of the case answered instead of the real handler. */
  faulted: boolean;
  /** What the handler returned, once it has (absent while it runs, and when it threw). */
  output?: unknown;
  /** The handler threw (or was abandoned after its timeout). */
  threw?: boolean;
}

/** Model calls and tokens of one agent. */
export interface AgentUsage {
  steps: number;
  promptTokens: number;
  completionTokens: number;
}

/**
 * What one case's instrumentation records while the system runs: the worker tools' handler runs
 * and results (from the tool wrappers), model calls and tokens per agent, the arguments each model
 * asked for and the tool results each model read (from the model wrappers). Fresh for each case.
 */
export class CaseRecorder {
  readonly runs: HandlerRun[] = [];
  readonly usage = new Map<string, AgentUsage>();
  /** The worker tools of the system, by name: the agent that owns each. */
  readonly workerTools = new Map<string, { agent: string; risk: ToolRisk }>();
  readonly #requested = new Map<string, string>();
  readonly #toolResults = new Map<string, Set<string>>();

  /** Counts one model call of `agent` and its tokens (none when the call failed). */
  recordModelCall({
    agent,
    usage,
  }: {
    agent: string;
    usage?: { promptTokens: number; completionTokens: number } | undefined;
  }): void {
    const entry = this.usage.get(agent) ?? { steps: 0, promptTokens: 0, completionTokens: 0 };
    entry.steps += 1;
    entry.promptTokens += usage?.promptTokens ?? 0;
    entry.completionTokens += usage?.completionTokens ?? 0;
    this.usage.set(agent, entry);
  }

  /** Keeps the arguments a model asked for in a tool call (the raw JSON text). */
  recordRequestedCall({
    agent,
    callId,
    argumentsText,
  }: {
    agent: string;
    callId: string;
    argumentsText: string;
  }): void {
    this.#requested.set(`${agent}\u0000${callId}`, argumentsText);
  }

  /** The arguments the model of `agent` wrote for the call `callId`, if it was seen. */
  requestedArguments({ agent, callId }: { agent: string; callId: string }): string | undefined {
    return this.#requested.get(`${agent}\u0000${callId}`);
  }

  /** Keeps the tool results (role `tool` messages) that reached the model of `agent`. */
  recordToolResults({ agent, texts }: { agent: string; texts: readonly string[] }): void {
    const seen = this.#toolResults.get(agent) ?? new Set<string>();
    for (const text of texts) seen.add(text);
    this.#toolResults.set(agent, seen);
  }

  /** The tool results that reached each agent's model, by agent. */
  toolResults(): ReadonlyMap<string, ReadonlySet<string>> {
    return this.#toolResults;
  }

  /** Model calls across all agents. */
  totalUsage(): AgentUsage {
    const total: AgentUsage = { steps: 0, promptTokens: 0, completionTokens: 0 };
    for (const entry of this.usage.values()) {
      total.steps += entry.steps;
      total.promptTokens += entry.promptTokens;
      total.completionTokens += entry.completionTokens;
    }
    return total;
  }
}
