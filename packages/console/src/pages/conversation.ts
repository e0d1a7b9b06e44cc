import { html } from '../html/html.ts';
import type { TaskView } from './task-snapshot.ts';

/** A task's state and conversation, with the ids the live script updates in place. */
export function conversation(task: TaskView | undefined, unreadable: string) {
  if (!task) return html`<p class="empty">${unreadable}</p>`;
  const messages = task.messages.map(
    ({ who, text }) =>
      html`<div class="message"><div class="role">${who}</div><div class="text">${text}</div></div>`,
  );
  return html`<p>Task <code>${task.id}</code>: <b id="task-state">${task.state}</b></p><div id="conversation">${messages}</div>`;
}

/** The console's one script, which follows the page's `data-events` stream. */
export const liveScript = (base: string) => html`<script src="${base}/assets/live.js" defer></script>`;
