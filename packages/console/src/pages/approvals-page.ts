import type { BoardApproval } from '@switchboard/protocol';
import { html } from '../html/html.ts';

/** The table of a board page: oldest first, each row one click from its approval's page. */
export function approvalsTable({
  base,
  approvals,
  decided,
}: {
  base: string;
  approvals: readonly BoardApproval[];
  decided: boolean;
}) {
  if (approvals.length === 0)
    return html`<p class="empty">${decided ? 'No approval has been decided yet.' : 'Nothing waits for an approval.'}</p>`;
  const rows = approvals.map(
    (approval) => html`<tr>
  <td>${approval.requestedAt}</td>
  <td>${approval.agent}</td>
  <td><a href="${base}/approvals/${encodeURIComponent(approval.id)}">${approval.action}</a></td>
  <td>${approval.requestedBy ?? 'unknown'}</td>
  ${decided ? html`<td>${approval.status} by ${approval.decidedBy ?? 'unknown'} at ${approval.decidedAt ?? '?'}</td>` : html`<td><a href="${base}/approvals/${encodeURIComponent(approval.id)}">Open</a></td>`}
</tr>`,
  );
  return html`<table>
<thead><tr><th>Requested</th><th>Agent</th><th>What will run</th><th>Asked by</th><th>${decided ? 'Decision' : ''}</th></tr></thead>
<tbody>${rows}</tbody>
</table>`;
}
