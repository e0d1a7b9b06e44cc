import type { Task } from '@a2a-js/sdk';
import type { BoardApproval } from '@switchboard/protocol';
import { html } from '../html/html.ts';
import { conversation, liveScript } from './conversation.ts';
import { snapshotOf } from './task-snapshot.ts';

/** An argument's value as it will be passed: a string as written, anything else as JSON. */
function argumentValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/**
 * One approval: exactly what will run, who asked and why, and the decision (or the form to take
 * it). The page follows the task live (`live.js` over `<approval>/events`).
 */
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
  const snapshot = snapshotOf(approval, task);
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
      : '';
  return html`<div class="approval" data-events="${action}/events">
<section>
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
<p>Asked by <b>${approval.requestedBy ?? 'unknown'}</b> at ${approval.requestedAt} (<a href="${base}/requests/${encodeURIComponent(approval.taskId)}">the request</a>).</p>
${conversation(snapshot.task, 'The task that waits for this approval could not be read.')}
</section>
<section>
<h2>Decision</h2>
<p class="decision" id="decision">${snapshot.decision ?? ''}</p>
${decision}
</section>
</div>
${liveScript(base)}`;
}
