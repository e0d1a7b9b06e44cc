import type { AgentCard } from '@a2a-js/sdk';
import { CARD_SHAPES, checkCard, renderAgentCard } from '@switchboard/cards';
import { html } from '../html/html.ts';

/** The card in each shape it is served in, with the checker's verdict on each (`switchboard cards check`). */
export function cardVerdicts(card: AgentCard) {
  const rows = CARD_SHAPES.map((shape) => {
    const { problems, valid } = checkCard(renderAgentCard({ card, version: shape }).card);
    const errors = problems.filter((problem) => problem.severity === 'error');
    const warnings = problems.filter((problem) => problem.severity === 'warning');
    const first = [...errors, ...warnings]
      .slice(0, 3)
      .map((problem) => html`<li>${problem.severity}: ${problem.message}</li>`);
    return html`<tr><td>${shape}</td><td>${valid ? 'valid' : 'invalid'}</td><td>${errors.length} errors, ${warnings.length} warnings${first.length > 0 ? html`<ul>${first}</ul>` : ''}</td></tr>`;
  });
  return html`<table class="cards"><thead><tr><th>Card shape</th><th>Verdict</th><th>Problems</th></tr></thead><tbody>${rows}</tbody></table>`;
}
