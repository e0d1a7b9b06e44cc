import type { ChatMessage, ToolDeclaration } from '../model/messages.ts';

/** Estimates the tokens of a text. Pluggable wherever a budget is computed. */
export type TokenEstimator = (text: string) => number;

/**
 * A tokenizer-free estimate: about four characters per token for English and code, the usual rule
 * of thumb for BPE tokenizers. Good enough for budgets; use a real tokenizer where exact counts matter.
 */
export const estimateTextTokens: TokenEstimator = (text) => Math.ceil(text.length / 4);

/** Per-message framing overhead of the Chat Completions format (role, separators). */
const MESSAGE_OVERHEAD = 4;

/** Estimated prompt tokens of one message. */
export function estimateMessageTokens(
  message: ChatMessage,
  estimate: TokenEstimator = estimateTextTokens,
): number {
  let tokens = MESSAGE_OVERHEAD + estimate(message.content ?? '');
  if (message.role === 'assistant') {
    for (const call of message.tool_calls ?? [])
      tokens += estimate(call.function.name + call.function.arguments) + 3;
  }
  return tokens;
}

/** Estimated prompt tokens of a request: its messages plus its tool declarations. */
export function estimatePromptTokens(
  messages: readonly ChatMessage[],
  tools: readonly ToolDeclaration[] = [],
  estimate: TokenEstimator = estimateTextTokens,
): number {
  let tokens = 3;
  for (const message of messages) tokens += estimateMessageTokens(message, estimate);
  for (const tool of tools) tokens += estimate(JSON.stringify(tool.function));
  return tokens;
}
