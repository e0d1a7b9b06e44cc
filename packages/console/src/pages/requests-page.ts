import type { ChatMessage } from '@switchboard/agent';
import type { OwnedTask } from '@switchboard/host/approvals';
import { html } from '../html/html.ts';
import { conversation, liveScript } from './conversation.ts';
import { requestCost } from './request-cost.ts';
import { stateName, taskView } from './task-snapshot.ts';
import { toolCalls } from './tool-calls.ts';

/** The filters of the requests list, as the form sends them. */
export interface RequestFilters {
  /** Part of the owner's principal key (`traveller-1`, `user:u-1024`). */
  user?: string | undefined;
  /** A state in the protocol's words (`input-required`). */
  state?: string | undefined;
}

const STATES = [
  'submitted',
  'working',
  'input-required',
  'auth-required',
  'completed',
  'failed',
  'canceled',
  'rejected',
];

/** The first thing the user said: what the request is about. */
function asked(entry: OwnedTask): string {
  const first = taskView(entry.task).messages.find((message) => message.who === 'user')?.text ?? '';
  return first.length > 140 ? `${first.slice(0, 140)}…` : first;
}

/** Whether a task passes the filters. */
export function matches(entry: OwnedTask, { user, state }: RequestFilters): boolean {
  return (!user || entry.owner.includes(user)) && (!state || stateName(entry.task.status?.state) === state);
}

/** The requests list: the most recent tasks of every user, newest first, filtered by user and state. */
export function requestsTable({
  base,
  entries,
  filters,
}: {
  base: string;
  entries: readonly OwnedTask[];
  filters: RequestFilters;
}) {
  const options = STATES.map(
    (state) =>
      html`<option value="${state}"${state === filters.state ? html` selected` : ''}>${state}</option>`,
  );
  const form = html`<form method="get" action="${base}/requests" class="filters">
  <label>User <input name="user" value="${filters.user ?? ''}" autocomplete="off"></label>
  <label>State <select name="state"><option value="">any</option>${options}</select></label>
  <button type="submit">Filter</button>
</form>`;
  if (entries.length === 0) return html`${form}<p class="empty">No request matches.</p>`;
  const rows = entries.map((entry) => {
    const href = `${base}/requests/${encodeURIComponent(entry.task.id)}`;
    return html`<tr>
  <td>${entry.task.status?.timestamp ?? ''}</td>
  <td>${entry.owner}</td>
  <td>${stateName(entry.task.status?.state)}</td>
  <td><a href="${href}">${asked(entry) || entry.task.id}</a></td>
</tr>`;
  });
  return html`${form}<table class="requests">
<thead><tr><th>Changed</th><th>User</th><th>State</th><th>Asked</th></tr></thead>
<tbody>${rows}</tbody>
</table>`;
}

/**
 * One request: whose it is, its state and its conversation, followed live, and the tool calls of its
 * conversation (the delegations among them) when the agent's run state is at hand.
 */
export function requestDetail({
  base,
  entry,
  messages,
}: {
  base: string;
  entry: OwnedTask;
  messages: readonly ChatMessage[] | undefined;
}) {
  const events = `${base}/requests/${encodeURIComponent(entry.task.id)}/events`;
  return html`<div class="request" data-events="${events}">
<p>For <b>${entry.owner}</b>${entry.tenant ? html` (tenant ${entry.tenant})` : ''}, last changed ${entry.task.status?.timestamp ?? '?'}.</p>
${conversation(taskView(entry.task), '')}
</div>
<section>
<h2>Tool calls of the conversation</h2>
${messages ? toolCalls(messages) : html`<p class="empty">This service keeps no run state the console can read.</p>`}
</section>
${requestCost(entry.task)}
${liveScript(base)}`;
}
