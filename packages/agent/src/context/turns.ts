import type { ChatMessage } from '../model/messages.ts';

/** A history cut into the pieces that trimming works with. See {@link splitTurns}. */
export interface SplitHistory {
  /** The leading system messages: the agent's working memory. */
  system: ChatMessage[];
  /** What comes after them but before the first user message, e.g. a history that opens with an assistant. */
  preamble: ChatMessage[];
  /** Each turn starts at a user message and runs up to the next one. */
  turns: ChatMessage[][];
}

/**
 * Splits a history into its leading system messages, a preamble and turns. A turn starts at a user
 * message and runs to the next user message, so an assistant message with tool calls and all of its
 * results always sit in the same turn. Later system messages stay inside their turn.
 *
 * @example
 * splitTurns([sys, user1, assistant1, user2]);
 * // { system: [sys], preamble: [], turns: [[user1, assistant1], [user2]] }
 */
export function splitTurns(messages: readonly ChatMessage[]): SplitHistory {
  const system: ChatMessage[] = [];
  const preamble: ChatMessage[] = [];
  const turns: ChatMessage[][] = [];
  let current: ChatMessage[] | undefined;

  for (const message of messages) {
    if (message.role === 'user') {
      current = [message];
      turns.push(current);
    } else if (current !== undefined) {
      current.push(message);
    } else if (message.role === 'system' && preamble.length === 0) {
      system.push(message);
    } else {
      preamble.push(message);
    }
  }
  return { system, preamble, turns };
}
