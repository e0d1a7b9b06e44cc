import type { SystemMessage } from '../model/messages.ts';
import type { ToolFailureRecord } from './tool-failures.ts';

/** First line of the system message that carries recalled long-term facts. */
export const RECALL_HEADING = 'Relevant facts from long-term memory:';

/** Start of the system message that stands in for the turns left out of a request. */
export const SUMMARY_HEADING = 'Summary of the earlier conversation:';

/** The system message listing facts recalled from long-term memory, one per line. */
export function recallMessage(facts: readonly string[]): SystemMessage {
  return { role: 'system', content: [RECALL_HEADING, ...facts.map((fact) => `- ${fact}`)].join('\n') };
}

/** Input of {@link summaryMessage}. */
export interface SummaryMessageInput {
  /** The summary written by a summarize hook; undefined when there is no hook or it failed. */
  summary: string | undefined;
  droppedTurns: number;
  droppedMessages: number;
  /** Failed tool calls in the left-out part; listed verbatim, whatever the summary says. */
  failures: readonly ToolFailureRecord[];
}

/**
 * The system message that stands in for what was trimmed: the hook's summary (or, without one, how
 * much was left out), then every failed tool call of the left-out part, written by us, not the hook.
 */
export function summaryMessage({
  summary,
  droppedTurns,
  droppedMessages,
  failures,
}: SummaryMessageInput): SystemMessage {
  const amount =
    droppedTurns > 0 ? plural(droppedTurns, 'earlier turn') : plural(droppedMessages, 'earlier message');
  const body =
    summary !== undefined && summary.trim() !== ''
      ? summary.trim()
      : `${amount} left out of this request; no summary of them is available.`;
  const lines = [`${SUMMARY_HEADING} ${body}`];
  if (failures.length > 0) {
    lines.push('', 'Tool calls that failed in that earlier part of the conversation:');
    for (const failure of failures) {
      lines.push(
        `- ${failure.toolName} (${failure.toolCallId}) failed with ${failure.code}: ${failure.message}`,
      );
    }
  }
  return { role: 'system', content: lines.join('\n') };
}

function plural(count: number, noun: string): string {
  return count === 1 ? `1 ${noun} was` : `${count} ${noun}s were`;
}
