import type { AgentCard } from '@a2a-js/sdk';
import { html } from '../html/html.ts';
import { REQUIRES_APPROVAL_TAG, type TeamAgent } from '../team-view.ts';

function skills(card: AgentCard) {
  const rows = card.skills.map(
    (skill) =>
      html`<tr><td>${skill.name}</td><td>${skill.description}</td><td>${skill.tags.includes(REQUIRES_APPROVAL_TAG) ? 'needs an approval' : ''}</td></tr>`,
  );
  return html`<table><thead><tr><th>Skill</th><th>What it does</th><th>Approval</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function agent({ name, card, replicas }: TeamAgent) {
  const instances = replicas.map(
    (replica) =>
      html`<li><code>${replica.instanceId}</code>${replica.url ? html` at ${replica.url}` : ''}, last seen ${replica.lastSeen.toISOString()}</li>`,
  );
  return html`<section class="agent">
<h2>${name} <small>version ${card.version}</small></h2>
<p class="text">${card.description}</p>
${skills(card)}
<h3>Replicas (${replicas.length})</h3>
<ul>${instances}</ul>
</section>`;
}

/** The team: every agent, its skills and which need an approval, and its live replicas. */
export function teamPage({ card, view }: { card: AgentCard; view: readonly TeamAgent[] | undefined }) {
  if (!view) return agent({ name: card.name, card, replicas: [] });
  if (view.length === 0)
    return html`<p class="empty">No agent of the team has a live replica in the registry.</p>`;
  return html`${[...view].sort((a, b) => a.name.localeCompare(b.name)).map(agent)}`;
}
