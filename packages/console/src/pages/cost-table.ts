import { type AgentCost, COST_FIGURES, type CostFigures } from '@switchboard/agent';
import { html, type SafeHtml } from '../html/html.ts';

const cells = (figures: CostFigures) =>
  COST_FIGURES.map((key) => html`<td class="number">${figures[key]}</td>`);

/**
 * A cost table: one row per agent (its name is text, inert like everything a peer wrote), then the
 * total: tokens in and out, model, tool and queue time in milliseconds, hops.
 */
export function costTable(agents: readonly AgentCost[], total: CostFigures): SafeHtml {
  const rows = agents.map((entry) => html`<tr><td>${entry.agent}</td>${cells(entry)}</tr>`);
  return html`<table class="costs">
<thead><tr><th>Agent</th><th>Tokens in</th><th>Tokens out</th><th>Model ms</th><th>Tool ms</th><th>Queue wait ms</th><th>Hops</th></tr></thead>
<tbody>${rows}</tbody>
<tfoot><tr><th>Total</th>${cells(total)}</tr></tfoot>
</table>`;
}
