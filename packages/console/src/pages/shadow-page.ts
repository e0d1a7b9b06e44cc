import { pairDifferences } from '@switchboard/shadow';
import { historySvg } from '../html/history-svg.ts';
import { html } from '../html/html.ts';
import type { ShadowReportRow } from '../shadow-view.ts';

/** Disagreements listed at most. */
const SHOWN = 50;

const percent = (share: number) => `${Math.round(share * 100)}%`;

/** A trace id, linked to the console's own trace page when it reads traces. */
function traceLink(traceId: string | undefined, base: string | undefined) {
  if (!traceId) return '-';
  return base
    ? html`<a href="${base}/traces/${encodeURIComponent(traceId)}"><code>${traceId}</code></a>`
    : html`<code>${traceId}</code>`;
}

/**
 * The shadow reports: per agent and candidate, how often the shadow agreed with what really happened
 * (same tools, same writes, same answer, answers a judge found equivalent), its policy violations, and
 * the disagreements worth a look with both traces.
 */
export function shadowPage({
  rows,
  traces,
}: {
  rows: readonly ShadowReportRow[] | undefined;
  /** The console's base path when it reads traces: each trace id links to its waterfall. */
  traces?: string | undefined;
}) {
  if (!rows) {
    return html`<p class="notice problem">This console reads no shadow records (the service runs without Redis).</p>`;
  }
  if (rows.length === 0) {
    return html`<p class="empty">No shadow pairs yet. A shadow records them once &lt;AGENT&gt;_SHADOW_CANDIDATE and &lt;AGENT&gt;_SHADOW_SHARE are set on an agent's service and requests come in.</p>`;
  }
  const table = rows.map(
    (row) => html`<tr>
  <td>${row.agent}</td><td>${row.candidate}</td><td>${row.pairs}</td><td>${row.compared}</td><td>${row.againstOperator}</td>
  <td>${percent(row.agreement.trajectory)}</td><td>${percent(row.agreement.writes)}</td><td>${percent(row.agreement.answers)}</td>
  <td>${percent(row.agreement.answersAgree)} <small>(${row.judged} judged)</small></td><td>${row.agreement.meanAnswerSimilarity.toFixed(2)}</td>
  <td>${row.violations.extraWrites}</td><td>${row.violations.dangerous}</td>
</tr>`,
  );
  // Agreement day by day, for each agent's candidate with more than one day of compared pairs.
  const plots = rows.flatMap((row) => {
    const days = row.byDay.filter((day) => day.compared > 0);
    if (days.length < 2) return [];
    const series = [
      { label: 'same tools', values: days.map((day) => day.agreement.trajectory) },
      { label: 'same writes', values: days.map((day) => day.agreement.writes) },
      { label: 'answers agree', values: days.map((day) => day.agreement.answersAgree) },
    ];
    return [
      html`<h2>${row.agent} ${row.candidate}: agreement by day</h2>${historySvg({ points: days.map((day) => day.day), series })}`,
    ];
  });
  const disagreements = rows.flatMap((row) => row.disagreements).slice(0, SHOWN);
  const listed = disagreements.map(
    (c) => html`<tr class="${c.violations.length > 0 ? 'failed' : ''}">
  <td>${c.agent}</td><td>${c.candidate}</td><td><code>${c.taskId}</code></td><td>${c.baseline}</td>
  <td><ul>${pairDifferences(c).map((line) => html`<li>${line}</li>`)}</ul></td>
  <td>${traceLink(c.traceIds.baseline, traces)}</td><td>${traceLink(c.traceIds.shadow, traces)}</td>
</tr>`,
  );
  return html`<table class="shadow">
<thead><tr><th>Agent</th><th>Candidate</th><th>Pairs</th><th>Compared</th><th>vs operator</th><th>Same tools</th><th>Same writes</th><th>Same answer</th><th>Answers agree</th><th>Answer similarity</th><th>Extra writes</th><th>Dangerous</th></tr></thead>
<tbody>${table}</tbody>
</table>
${plots}
<h2>Disagreements worth a look</h2>
${
  listed.length === 0
    ? html`<p class="empty">None: every compared pair agreed.</p>`
    : html`<table class="disagreements"><thead><tr><th>Agent</th><th>Candidate</th><th>Task</th><th>Against</th><th>What differed</th><th>Baseline trace</th><th>Shadow trace</th></tr></thead><tbody>${listed}</tbody></table>`
}`;
}
