import type { ChatMessage } from '@switchboard/agent';
import { html } from '../html/html.ts';

/** How much of a tool's outcome a row shows. */
const OUTCOME_CHARS = 2_000;

/** Arguments as the model wrote them, indented when they are JSON. */
function argumentsText(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * Every tool call of a conversation, in order: the tool (a delegation is `ask_<agent>_<skill>`), its
 * arguments as the model wrote them, and its outcome as the tool answered (cut at 2,000 characters).
 */
export function toolCalls(messages: readonly ChatMessage[]) {
  const outcomes = new Map(
    messages.flatMap((message) =>
      message.role === 'tool' ? [[message.tool_call_id, message.content] as const] : [],
    ),
  );
  const rows = messages.flatMap((message) =>
    message.role === 'assistant'
      ? (message.tool_calls ?? []).map((call) => {
          const outcome = outcomes.get(call.id);
          const shown =
            outcome && outcome.length > OUTCOME_CHARS ? `${outcome.slice(0, OUTCOME_CHARS)}…` : outcome;
          return html`<tr><td>${call.function.name}</td><td><pre>${argumentsText(call.function.arguments)}</pre></td><td><pre>${shown ?? 'no outcome yet'}</pre></td></tr>`;
        })
      : [],
  );
  if (rows.length === 0) return html`<p class="empty">No tool was called in this conversation.</p>`;
  return html`<table class="tool-calls"><thead><tr><th>Tool</th><th>Arguments</th><th>Outcome</th></tr></thead><tbody>${rows}</tbody></table>`;
}
