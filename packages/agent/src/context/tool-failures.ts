import type { ChatMessage } from '../model/messages.ts';
import { parseToolResult } from '../tools/tool-result.ts';

/** A failed tool call found in a history: which tool, which call, and the failure as the model saw it. */
export interface ToolFailureRecord {
  /** The tool's name, from the assistant call with the same id; `unknown tool` when that call is absent. */
  toolName: string;
  toolCallId: string;
  code: string;
  message: string;
}

/**
 * Finds the tool results in `messages` whose envelope says `ok: false`, in order, with the name of the
 * tool each one answers. Results that are not our envelope are skipped.
 */
export function findToolFailures(messages: readonly ChatMessage[]): ToolFailureRecord[] {
  const toolNames = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const call of message.tool_calls ?? []) toolNames.set(call.id, call.function.name);
  }
  const failures: ToolFailureRecord[] = [];
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    const envelope = parseToolResult(message.content);
    if (envelope === undefined || envelope.ok) continue;
    failures.push({
      toolName: toolNames.get(message.tool_call_id) ?? 'unknown tool',
      toolCallId: message.tool_call_id,
      code: envelope.error.code,
      message: envelope.error.message,
    });
  }
  return failures;
}
