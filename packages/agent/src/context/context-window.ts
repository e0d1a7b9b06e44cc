import { AgentError } from '../errors.ts';
import type { ChatMessage, SystemMessage, ToolDeclaration } from '../model/messages.ts';
import { type Logger, stderrLogger } from '../observe/logger.ts';
import { assertValidHistory } from './history-check.ts';
import { recallMessage, summaryMessage } from './memory-messages.ts';
import { RollingSummary, type SummarizeHook } from './rolling-summary.ts';
import {
  estimateMessageTokens,
  estimatePromptTokens,
  estimateTextTokens,
  type TokenEstimator,
} from './token-estimate.ts';
import { findToolFailures } from './tool-failures.ts';
import { type TrimResult, trimHistory, validateTrimLimits } from './trim-history.ts';
import { splitTurns } from './turns.ts';

/** Long-term memory: returns facts worth adding to the current request. */
export type RecallHook = (input: {
  /** The content of the last user message. */
  query: string;
  conversationId: string;
  signal?: AbortSignal;
}) => Promise<readonly string[]> | readonly string[];

/** Options of {@link ContextWindow}. */
export interface ContextWindowOptions {
  /** Keep at most this many recent turns. Default: no limit. */
  maxTurns?: number;
  /**
   * Token budget of a request, counting tool declarations and the added memory messages. About 60% of
   * the model's context window is a good default: `Math.floor(128_000 * 0.6)`. Default: no budget.
   */
  tokenBudget?: number;
  /** How text is counted. Default: {@link estimateTextTokens}. */
  estimateTokens?: TokenEstimator;
  /** Rolling summary of trimmed turns. Without it, a plain note says how much was left out. */
  summarize?: SummarizeHook;
  /** Long-term memory lookup. Skipped when the history has no user message. */
  recall?: RecallHook;
  /** Where failing hooks are reported. Default: {@link stderrLogger}. */
  logger?: Pick<Logger, 'warn'>;
}

/** Input of {@link ContextWindow.prepare}. */
export interface PrepareContextOptions {
  /** The full history: the single source of truth of the conversation. Not mutated. */
  messages: readonly ChatMessage[];
  conversationId: string;
  /** The tool declarations of the request; they count against the budget. */
  tools?: readonly ToolDeclaration[];
  signal?: AbortSignal;
}

/** What to send to the model, and what was done to get there. */
export interface PreparedContext {
  /** System messages, recalled facts, the summary of what was cut, then the kept turns. */
  messages: ChatMessage[];
  droppedTurns: number;
  /** The content of the summary message, when something was left out. */
  summary?: string;
  /** The facts from long-term memory that were added. */
  recalled: string[];
  /** Estimated prompt tokens of `messages` plus `tools`. */
  estimatedTokens: number;
  /** True when even the smallest history that may be sent exceeds `tokenBudget`. */
  overBudget: boolean;
}

/** Re-trims after adding the summary at most this often; the summary usually settles in one. */
const MAX_RETRIMS = 3;

/**
 * Decides what the model sees on each request. Working memory is the leading system messages,
 * short-term memory the most recent turns (see {@link trimHistory}), long-term memory what `recall`
 * adds. Turns that are cut are replaced by one summary system message, which always lists the failed
 * tool calls of the cut part verbatim, whatever the summarize hook wrote. The result always passes
 * {@link assertValidHistory}. A failing hook is logged and skipped, never fatal.
 *
 * @example
 * const context = new ContextWindow({ tokenBudget: Math.floor(128_000 * 0.6), summarize, recall });
 * const { messages } = await context.prepare({ messages: history, conversationId, tools });
 */
export class ContextWindow {
  readonly #maxTurns: number | undefined;
  readonly #tokenBudget: number | undefined;
  readonly #estimateTokens: TokenEstimator;
  readonly #recall: RecallHook | undefined;
  readonly #summary: RollingSummary | undefined;
  readonly #logger: Pick<Logger, 'warn'>;

  constructor({
    maxTurns,
    tokenBudget,
    estimateTokens = estimateTextTokens,
    summarize,
    recall,
    logger = stderrLogger(),
  }: ContextWindowOptions = {}) {
    validateTrimLimits({ maxTurns, tokenBudget });
    this.#maxTurns = maxTurns;
    this.#tokenBudget = tokenBudget;
    this.#estimateTokens = estimateTokens;
    this.#recall = recall;
    this.#logger = logger;
    this.#summary = summarize === undefined ? undefined : new RollingSummary({ hook: summarize, logger });
  }

  /** Builds the messages of the next model request from the full history. */
  async prepare({
    messages,
    conversationId,
    tools = [],
    signal,
  }: PrepareContextOptions): Promise<PreparedContext> {
    if (!Array.isArray(messages)) {
      throw new AgentError('INVALID_OPTIONS', {
        message: 'prepare() needs messages: the full history as an array.',
      });
    }
    if (typeof conversationId !== 'string' || conversationId === '') {
      throw new AgentError('INVALID_OPTIONS', {
        message: 'prepare() needs a non-empty conversationId; memory is kept per conversation.',
      });
    }
    throwIfAborted(signal);

    const recalled = await this.#recallFacts(messages, conversationId, signal);
    const memory: SystemMessage[] = recalled.length > 0 ? [recallMessage(recalled)] : [];
    const fixedTokens =
      estimatePromptTokens([], tools, this.#estimateTokens) -
      estimatePromptTokens([], [], this.#estimateTokens) +
      memory.reduce((sum, message) => sum + estimateMessageTokens(message, this.#estimateTokens), 0);

    let trim = this.#trim(messages, fixedTokens);
    let summary = await this.#summarize(trim, conversationId, signal);
    for (let pass = 0; pass < MAX_RETRIMS && summary !== undefined; pass += 1) {
      const next = this.#trim(messages, fixedTokens + estimateMessageTokens(summary, this.#estimateTokens));
      // A shorter summary could let fewer turns go; keep the larger cut rather than re-summarise.
      if (next.dropped.length <= trim.dropped.length) break;
      trim = next;
      summary = await this.#summarize(trim, conversationId, signal);
    }

    const leading = splitTurns(trim.messages).system.length;
    const prepared = [
      ...trim.messages.slice(0, leading),
      ...memory,
      ...(summary === undefined ? [] : [summary]),
      ...trim.messages.slice(leading),
    ];
    assertValidHistory(prepared);
    const estimatedTokens = estimatePromptTokens(prepared, tools, this.#estimateTokens);
    return {
      messages: prepared,
      droppedTurns: trim.droppedTurns,
      ...(summary === undefined ? {} : { summary: summary.content }),
      recalled,
      estimatedTokens,
      overBudget: this.#tokenBudget !== undefined && estimatedTokens > this.#tokenBudget,
    };
  }

  #trim(messages: readonly ChatMessage[], reserveTokens: number): TrimResult {
    return trimHistory({
      messages,
      maxTurns: this.#maxTurns,
      tokenBudget: this.#tokenBudget,
      estimateTokens: this.#estimateTokens,
      reserveTokens,
    });
  }

  async #summarize(
    trim: TrimResult,
    conversationId: string,
    signal: AbortSignal | undefined,
  ): Promise<SystemMessage | undefined> {
    if (trim.dropped.length === 0) return undefined;
    const written = await this.#summary?.summarize({ conversationId, dropped: trim.dropped, signal });
    return summaryMessage({
      summary: written,
      droppedTurns: trim.droppedTurns,
      droppedMessages: trim.dropped.length,
      failures: findToolFailures(trim.dropped),
    });
  }

  async #recallFacts(
    messages: readonly ChatMessage[],
    conversationId: string,
    signal: AbortSignal | undefined,
  ): Promise<string[]> {
    const query = messages.findLast((message) => message.role === 'user')?.content;
    if (this.#recall === undefined || query === undefined) return [];
    try {
      const facts: unknown = await this.#recall({ query, conversationId, signal });
      if (!Array.isArray(facts))
        throw new TypeError(`recall returned ${typeof facts}, not an array of strings`);
      return facts.filter((fact): fact is string => typeof fact === 'string' && fact.trim() !== '');
    } catch (err) {
      if (signal?.aborted) throw new AgentError('ABORTED', { cause: signal.reason });
      this.#logger.warn(
        { err, conversationId },
        'The recall hook failed; the request goes on without long-term memory.',
      );
      return [];
    }
  }
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AgentError('ABORTED', { cause: signal.reason });
}
