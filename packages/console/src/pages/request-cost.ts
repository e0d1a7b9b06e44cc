import type { Task } from '@a2a-js/sdk';
import { readTaskCost } from '@switchboard/protocol';
import { html } from '../html/html.ts';
import { costTable } from './cost-table.ts';

/** The cost section of one request's page: what its latest run cost, across its agent tree. */
export function requestCost(task: Task) {
  const reading = readTaskCost(task.metadata);
  const body =
    reading.kind === 'cost'
      ? costTable(reading.cost.agents, reading.cost.total)
      : html`<p class="empty">${reading.kind === 'none' ? 'No cost is recorded for this request yet (it has not finished a run).' : 'The cost recorded for this request does not check out, so it is not shown.'}</p>`;
  return html`<section>
<h2>Cost of the latest run, across its agents</h2>
${body}
</section>`;
}
