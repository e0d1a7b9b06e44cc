import type { CostDay } from '@switchboard/host';
import { html } from '../html/html.ts';
import { costTable } from './cost-table.ts';

/** The choices of how many days the costs page shows. */
export const COST_PERIODS = [1, 7, 14, 31, 93] as const;

/**
 * The costs page: per UTC day, newest first, what the requests booked that day cost per agent and
 * in total (each root request's runs, its delegations included).
 */
export function costsPage({
  base,
  days,
  period,
}: {
  base: string;
  days: readonly CostDay[];
  period: number;
}) {
  const options = COST_PERIODS.map(
    (n) =>
      html`<option value="${n}"${n === period ? html` selected` : ''}>${n === 1 ? 'today' : `last ${n} days`}</option>`,
  );
  const form = html`<form method="get" action="${base}/costs" class="filters">
  <label>Period <select name="days">${options}</select></label>
  <button type="submit">Show</button>
</form>`;
  if (days.length === 0) return html`${form}<p class="empty">No request was booked in this period.</p>`;
  const sections = days.map(
    (day) => html`<section>
<h2>${day.day} · ${day.requests} request${day.requests === 1 ? '' : 's'}</h2>
${costTable(day.agents, day.total)}
</section>`,
  );
  return html`${form}${sections}`;
}
