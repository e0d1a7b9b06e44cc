import { AgentError } from '../errors.ts';
import type { ChatMessage } from '../model/messages.ts';

/** What can be wrong with the tool-call structure of a history. */
export type HistoryProblemKind =
  | 'orphan_tool_result'
  | 'missing_tool_result'
  | 'separated_tool_result'
  | 'duplicate_tool_result'
  | 'duplicate_tool_call_id';

/**
 * One tool-call rule a history breaks. `index` points at the message to fix: the tool message for
 * result problems, the assistant message for `missing_tool_result` and `duplicate_tool_call_id`.
 */
export interface HistoryProblem {
  kind: HistoryProblemKind;
  index: number;
  toolCallId: string;
}

/** Options of {@link findHistoryProblems} and {@link assertValidHistory}. */
export interface HistoryCheckOptions {
  /**
   * When true, the tool calls of the last assistant message may still lack results, as long as
   * nothing but tool messages follows it (the agent loop waiting for an approval). Default false.
   */
  allowPendingCalls?: boolean;
}

interface CallSite {
  assistantIndex: number;
  answered: boolean;
}

/**
 * Lists every way `messages` breaks the tool-call rules of chat APIs, ordered by message index.
 * Results are matched to calls by `tool_call_id`; they must follow the assistant message that made
 * the call directly (in any order among themselves), exactly once each.
 *
 * @example
 * findHistoryProblems([{ role: 'tool', tool_call_id: 'call_9', content: '{}' }]);
 * // [{ kind: 'orphan_tool_result', index: 0, toolCallId: 'call_9' }]
 */
export function findHistoryProblems(
  messages: readonly ChatMessage[],
  { allowPendingCalls = false }: HistoryCheckOptions = {},
): HistoryProblem[] {
  const problems: HistoryProblem[] = [];
  const calls = new Map<string, CallSite>();
  // The assistant message whose results may still follow: set by an assistant, cleared by any other
  // non-tool message.
  let openAssistant: number | undefined;

  messages.forEach((message, index) => {
    if (message.role === 'assistant') {
      openAssistant = index;
      for (const call of message.tool_calls ?? []) {
        if (calls.has(call.id)) problems.push({ kind: 'duplicate_tool_call_id', index, toolCallId: call.id });
        else calls.set(call.id, { assistantIndex: index, answered: false });
      }
      return;
    }
    if (message.role !== 'tool') {
      openAssistant = undefined;
      return;
    }
    const toolCallId = message.tool_call_id;
    const site = calls.get(toolCallId);
    if (site === undefined) problems.push({ kind: 'orphan_tool_result', index, toolCallId });
    else if (site.answered) problems.push({ kind: 'duplicate_tool_result', index, toolCallId });
    else {
      site.answered = true;
      if (site.assistantIndex !== openAssistant) {
        problems.push({ kind: 'separated_tool_result', index, toolCallId });
      }
    }
  });

  for (const [toolCallId, site] of calls) {
    if (site.answered) continue;
    if (allowPendingCalls && site.assistantIndex === openAssistant) continue;
    problems.push({ kind: 'missing_tool_result', index: site.assistantIndex, toolCallId });
  }
  return problems.sort((a, b) => a.index - b.index);
}

/**
 * Throws `MALFORMED_HISTORY` when `messages` breaks a tool-call rule (see {@link findHistoryProblems}),
 * with a message naming the message index and call id of each problem and what to do about it.
 * `details.problems` holds the full list.
 */
export function assertValidHistory(
  messages: readonly ChatMessage[],
  options: HistoryCheckOptions = {},
): void {
  const problems = findHistoryProblems(messages, options);
  if (problems.length === 0) return;
  const shown = problems.slice(0, MAX_DESCRIBED).map(describeProblem);
  const more = problems.length - shown.length;
  const tail = more > 0 ? ` And ${more} more problem(s): see details.problems.` : '';
  throw new AgentError('MALFORMED_HISTORY', {
    message: `The conversation history was not sent to the model: ${shown.join(' Also, ')}${tail}`,
    details: { problems },
  });
}

const MAX_DESCRIBED = 5;

/** One sentence per problem: where, which id, and how to fix it. */
function describeProblem({ kind, index, toolCallId }: HistoryProblem): string {
  switch (kind) {
    case 'orphan_tool_result':
      return `the tool result at index ${index} answers ${toolCallId}, which no assistant message requested. Remove it or add the assistant message that made the call.`;
    case 'missing_tool_result':
      return `the assistant message at index ${index} calls ${toolCallId}, but no tool result answers it. Add a tool message with tool_call_id "${toolCallId}" right after that assistant message, or remove the call.`;
    case 'separated_tool_result':
      return `the tool result at index ${index} answers ${toolCallId}, but another message stands between it and the assistant message that made the call. Move it directly after that assistant message.`;
    case 'duplicate_tool_result':
      return `the tool result at index ${index} answers ${toolCallId} a second time. Keep one result per call and remove the other.`;
    case 'duplicate_tool_call_id':
      return `the assistant message at index ${index} reuses the tool call id ${toolCallId}. Give every tool call its own id.`;
    default:
      return assertNever(kind);
  }
}

function assertNever(value: never): never {
  throw new Error(`Unhandled history problem kind: ${String(value)}`);
}
