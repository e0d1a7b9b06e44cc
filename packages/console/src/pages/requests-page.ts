import type { ChatMessage } from '@switchboard/agent';
import type { OwnedTask } from '@switchboard/host/approvals';
import { html } from '../html/html.ts';
import { conversation, liveScript } from './conversation.ts';
import { type ProgressLine, progressList } from './progress.ts';
import { requestCost } from './request-cost.ts';
import { stateName, taskView } from './task-snapshot.ts';
import { toolCalls } from './tool-calls.ts';

/** The filters of the requests list, as the form sends them. */
export interface RequestFilters {
  /** Whose tasks: another agent of the team by name; empty or absent for the host's own. */
  agent?: string | undefined;
  /** Part of the owner's principal key (`traveller-1`, `user:u-1024`). */
  user?: string | undefined;
  /** A state in the protocol's words (`input-required`). */
  state?: string | undefined;
  /** Changed at or after this time, as typed (`2026-12-04T19:00`, UTC unless it names a zone). */
  from?: string | undefined;
  /** Changed before this time, as typed. */
  to?: string | undefined;
}

/** The states a request can be filtered by, in the protocol's words. */
export const REQUEST_STATES: readonly string[] = [
  'submitted',
  'working',
  'input-required',
  'auth-required',
  'completed',
  'failed',
  'canceled',
  'rejected',
];

/** A query string of the fields that are set. */
const query = (fields: Record<string, string | undefined>) =>
  new URLSearchParams(
    Object.entries(fields).filter((field): field is [string, string] => !!field[1]),
  ).toString();

/** Where one request's page is: `?agent=` names another agent's. */
function requestHref(base: string, agent: string | undefined, taskId: string, page = ''): string {
  const path = `${base}/requests/${encodeURIComponent(taskId)}${page}`;
  return agent ? `${path}?${query({ agent })}` : path;
}

/** The first thing the user said: what the request is about. */
function asked(entry: OwnedTask): string {
  const first = taskView(entry.task).messages.find((message) => message.who === 'user')?.text ?? '';
  return first.length > 140 ? `${first.slice(0, 140)}…` : first;
}

/** Whether a task passes the filters. */
export function matches(entry: OwnedTask, { user, state }: RequestFilters): boolean {
  return (!user || entry.owner.includes(user)) && (!state || stateName(entry.task.status?.state) === state);
}

/**
 * The requests list: the most recent tasks of every user, newest first, filtered by user, state and
 * the time their state changed; `older` (ms) links to the page that follows.
 */
export function requestsTable({
  base,
  agents,
  entries,
  filters,
  older,
}: {
  base: string;
  /** The agents the list can show, the host's own first. */
  agents: readonly string[];
  entries: readonly OwnedTask[];
  filters: RequestFilters;
  older?: number | undefined;
}) {
  const [self] = agents;
  const agentOptions = agents.map(
    (name, index) =>
      html`<option value="${index === 0 ? '' : name}"${(filters.agent || self) === name ? html` selected` : ''}>${name}</option>`,
  );
  const options = REQUEST_STATES.map(
    (state) =>
      html`<option value="${state}"${state === filters.state ? html` selected` : ''}>${state}</option>`,
  );
  const form = html`<form method="get" action="${base}/requests" class="filters">
  <label>Agent <select name="agent">${agentOptions}</select></label>
  <label>User <input name="user" value="${filters.user ?? ''}" autocomplete="off"></label>
  <label>State <select name="state"><option value="">any</option>${options}</select></label>
  <label>From (UTC) <input name="from" type="datetime-local" step="1" value="${filters.from ?? ''}"></label>
  <label>To (UTC) <input name="to" type="datetime-local" step="1" value="${filters.to ?? ''}"></label>
  <button type="submit">Filter</button>
</form>`;
  const next =
    older === undefined
      ? ''
      : html`<p class="pages"><a href="${base}/requests?${query({ ...filters, before: String(older) })}">Older requests</a></p>`;
  if (entries.length === 0) return html`${form}<p class="empty">No request matches.</p>${next}`;
  const rows = entries.map((entry) => {
    const href = requestHref(base, filters.agent, entry.task.id);
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
</table>${next}`;
}

/**
 * One request: whose it is, its state and its conversation, followed live, and the tool calls of its
 * conversation (the delegations among them) when the agent's run state is at hand.
 */
export function requestDetail({
  base,
  agent,
  entry,
  messages,
  progress,
}: {
  base: string;
  /** The agent whose task it is, when not the host's own. */
  agent?: string | undefined;
  entry: OwnedTask;
  messages: readonly ChatMessage[] | undefined;
  /** What the task's current run has said so far, from its event log; absent without one. */
  progress?: { lines: readonly ProgressLine[]; last: number } | undefined;
}) {
  const stream = requestHref(base, agent, entry.task.id, '/events');
  // The live view goes on after the last progress line drawn here.
  const events = progress ? `${stream}${stream.includes('?') ? '&' : '?'}after=${progress.last}` : stream;
  return html`<div class="request" data-events="${events}">
<p>${agent ? html`A task of <b>${agent}</b>, for` : 'For'} <b>${entry.owner}</b>${entry.tenant ? html` (tenant ${entry.tenant})` : ''}, last changed ${entry.task.status?.timestamp ?? '?'}.</p>
${agent ? '' : html`<p><a href="${base}/requests/${encodeURIComponent(entry.task.id)}/trace">Trace</a>: its spans across services, as a waterfall.</p>`}
${conversation(taskView(entry.task), '')}
</div>
<section>
<h2>Progress</h2>
${progressList(progress?.lines)}
</section>
<section>
<h2>Tool calls of the conversation</h2>
${messages ? toolCalls(messages) : html`<p class="empty">This service keeps no run state the console can read.</p>`}
</section>
${requestCost(entry.task)}
${liveScript(base)}`;
}
