import type { Task } from '@a2a-js/sdk';
import { Role, TaskState } from '@a2a-js/sdk';
import type { BoardApproval } from '@switchboard/protocol';
import { readMessage } from '@switchboard/protocol';
import { html } from '../html/html.ts';

/** An argument's value as it will be passed: a string as written, anything else as JSON. */
function argumentValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/** A task state in the protocol's words: `input-required`, `completed`. */
export function stateName(state: TaskState | undefined): string {
  const name = state === undefined ? undefined : TaskState[state];
  return name
    ? name
        .replace(/^TASK_STATE_/, '')
        .toLowerCase()
        .replaceAll('_', '-')
    : 'unknown';
}

/** The conversation of the task that waits: who asked for what, in their words. */
function conversation(task: Task | undefined) {
  if (!task) return html`<p class="empty">The task that waits for this approval could not be read.</p>`;
  const messages = task.history.map((message) => {
    const { text } = readMessage(message);
    const who = message.role === Role.ROLE_USER ? 'user' : 'agent';
    return text
      ? html`<div class="message"><div class="role">${who}</div><div class="text">${text}</div></div>`
      : '';
  });
  return html`<p>Task <code>${task.id}</code>: ${stateName(task.status?.state)}</p>${messages}`;
}

/** One approval: exactly what will run, who asked and why, and the decision (or the form to take it). */
export function approvalDetail({
  base,
  approval,
  task,
  csrf,
}: {
  base: string;
  approval: BoardApproval;
  task: Task | undefined;
  csrf: string;
}) {
  const args = Object.entries(approval.arguments).map(
    ([name, value]) => html`<dt>${name}</dt><dd><pre>${argumentValue(value)}</pre></dd>`,
  );
  const action = `${base}/approvals/${encodeURIComponent(approval.id)}`;
  const decision =
    approval.status === 'pending'
      ? html`<form method="post" action="${action}/decide" class="decide">
  <input type="hidden" name="csrf" value="${csrf}">
  <label>Reason (optional) <input name="reason" maxlength="500" autocomplete="off"></label>
  <button type="submit" name="decision" value="approve">Approve</button>
  <button type="submit" name="decision" value="deny">Deny</button>
</form>`
      : html`<p class="decision">This approval is <b>${approval.status}</b>${approval.decidedBy ? html` by <b>${approval.decidedBy}</b> at ${approval.decidedAt ?? '?'}` : ''}${approval.withdrawnBy ? html` (its task was canceled by ${approval.withdrawnBy})` : ''}${approval.reason ? html`: “${approval.reason}”` : ''}.</p>`;
  return html`<section>
<h2>What will run</h2>
<p class="action text">${approval.action}</p>
${approval.details ? html`<div class="details text">${approval.details}</div>` : ''}
<dl>
  <dt>Agent</dt><dd>${approval.agent}</dd>
  <dt>Tool</dt><dd>${approval.tool}</dd>
  ${args}
  <dt>Reversible</dt><dd>${approval.reversible ? 'yes' : 'no'}</dd>
  <dt>Safe to repeat</dt><dd>${approval.repeatable ? 'yes' : 'no'}</dd>
  <dt>Arguments hash</dt><dd><code>${approval.argumentsHash}</code></dd>
</dl>
</section>
<section>
<h2>Who asked, and why</h2>
<p>Asked by <b>${approval.requestedBy ?? 'unknown'}</b> at ${approval.requestedAt}.</p>
${conversation(task)}
</section>
<section>
<h2>Decision</h2>
${decision}
</section>`;
}
