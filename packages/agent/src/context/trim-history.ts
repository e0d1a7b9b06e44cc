import { AgentError } from '../errors.ts';
import type { ChatMessage } from '../model/messages.ts';
import {
  estimateMessageTokens,
  estimatePromptTokens,
  estimateTextTokens,
  type TokenEstimator,
} from './token-estimate.ts';
import { splitTurns } from './turns.ts';

/** Options of {@link trimHistory}. */
export interface TrimHistoryOptions {
  /** The full history; it is not mutated. */
  messages: readonly ChatMessage[];
  /** Keep at most this many of the most recent turns (a positive integer). Default: no limit. */
  maxTurns?: number;
  /**
   * Drop the oldest turns until the estimated prompt, plus `reserveTokens`, fits in this many tokens.
   * About 60% of the model's context window is a good default, leaving room for tool declarations,
   * added memory and the answer: `tokenBudget: Math.floor(128_000 * 0.6)`. Default: no budget.
   */
  tokenBudget?: number;
  /** How text is counted. Default: {@link estimateTextTokens}. */
  estimateTokens?: TokenEstimator;
  /** Tokens that will be added to what is kept (tool declarations, summary, recalled facts). Default 0. */
  reserveTokens?: number;
}

/** What {@link trimHistory} kept and dropped. */
export interface TrimResult {
  /** The leading system messages, then the kept turns, in their original order. */
  messages: ChatMessage[];
  /** Everything left out, in original order: the preamble, then the oldest turns. */
  dropped: ChatMessage[];
  /** How many turns (not counting the preamble) were left out. */
  droppedTurns: number;
  /** `estimatePromptTokens(messages)` plus `reserveTokens`: what is compared with the budget. */
  estimatedTokens: number;
  /** True when even the leading system messages and the most recent turn exceed `tokenBudget`. */
  overBudget: boolean;
}

/**
 * Cuts a history down to its most recent turns (see {@link splitTurns}), without ever splitting one.
 *
 * - The leading system messages always stay.
 * - The cut lands only at the start of a turn, so a tool-call group is never split and the kept
 *   history (after the system messages) always starts with a user message when the history has one:
 *   the preamble before the first user message is dropped whenever a turn exists.
 * - At most `maxTurns` turns are kept; with `tokenBudget`, the oldest turns are dropped until the
 *   estimate plus `reserveTokens` fits.
 * - The most recent turn is always kept, even when it alone exceeds the budget (`overBudget: true`).
 *
 * A pure function. Throws `INVALID_OPTIONS` for a non-positive `maxTurns` or `tokenBudget`.
 *
 * @example
 * const { messages } = trimHistory({ messages: history, tokenBudget: Math.floor(128_000 * 0.6) });
 */
export function trimHistory({
  messages,
  maxTurns,
  tokenBudget,
  estimateTokens = estimateTextTokens,
  reserveTokens = 0,
}: TrimHistoryOptions): TrimResult {
  validateTrimLimits({ maxTurns, tokenBudget, reserveTokens });
  const { system, preamble, turns } = splitTurns(messages);
  const baseTokens = estimatePromptTokens(system, [], estimateTokens) + reserveTokens;

  if (turns.length === 0) {
    // No user message to cut at: the preamble is the only "turn" and is kept whole.
    const estimatedTokens = baseTokens + sumTokens(preamble, estimateTokens);
    return {
      messages: [...system, ...preamble],
      dropped: [],
      droppedTurns: 0,
      estimatedTokens,
      overBudget: tokenBudget !== undefined && estimatedTokens > tokenBudget,
    };
  }

  const turnTokens = turns.map((turn) => sumTokens(turn, estimateTokens));
  let keep = Math.min(turns.length, maxTurns ?? turns.length);
  let estimatedTokens = baseTokens + turnTokens.slice(-keep).reduce((a, b) => a + b, 0);
  if (tokenBudget !== undefined) {
    while (keep > 1 && estimatedTokens > tokenBudget) {
      estimatedTokens -= turnTokens[turns.length - keep] ?? 0;
      keep -= 1;
    }
  }

  const droppedTurns = turns.length - keep;
  return {
    messages: [...system, ...turns.slice(droppedTurns).flat()],
    dropped: [...preamble, ...turns.slice(0, droppedTurns).flat()],
    droppedTurns,
    estimatedTokens,
    overBudget: tokenBudget !== undefined && estimatedTokens > tokenBudget,
  };
}

/** Checks the numeric limits shared by {@link trimHistory} and `ContextWindow`. */
export function validateTrimLimits({
  maxTurns,
  tokenBudget,
  reserveTokens = 0,
}: {
  maxTurns?: number | undefined;
  tokenBudget?: number | undefined;
  reserveTokens?: number | undefined;
}): void {
  if (maxTurns !== undefined && !(Number.isInteger(maxTurns) && maxTurns >= 1)) {
    throw invalid(`maxTurns must be a positive integer (got ${maxTurns}); leave it out to keep every turn.`);
  }
  if (tokenBudget !== undefined && !(Number.isFinite(tokenBudget) && tokenBudget > 0)) {
    throw invalid(
      `tokenBudget must be a positive number of tokens (got ${tokenBudget}), e.g. Math.floor(128_000 * 0.6).`,
    );
  }
  if (!(Number.isFinite(reserveTokens) && reserveTokens >= 0)) {
    throw invalid(`reserveTokens must be zero or a positive number of tokens (got ${reserveTokens}).`);
  }
}

function invalid(message: string): AgentError {
  return new AgentError('INVALID_OPTIONS', { message });
}

function sumTokens(messages: readonly ChatMessage[], estimate: TokenEstimator): number {
  let tokens = 0;
  for (const message of messages) tokens += estimateMessageTokens(message, estimate);
  return tokens;
}
