import type { AgentCard } from '@a2a-js/sdk';
import { html } from '../html/html.ts';
import { type AgentQueue, REQUIRES_APPROVAL_TAG, type TeamAgent } from '../team-view.ts';
import { cardVerdicts } from './card-verdicts.ts';

function skills(card: AgentCard) {
  const rows = card.skills.map(
    (skill) =>
      html`<tr><td>${skill.name}</td><td>${skill.description}</td><td>${skill.tags.includes(REQUIRES_APPROVAL_TAG) ? 'needs an approval' : ''}</td></tr>`,
  );
  return html`<table><thead><tr><th>Skill</th><th>What it does</th><th>Approval</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** A duration for people: 850 ms, 12 s, 4 min, 3 h. */
export function age(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Math.round(ms / 1_000)} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 3_600_000)} h`;
}

function queueLine(queue: AgentQueue | undefined) {
  if (!queue) return '';
  const oldest = queue.oldestWaitMs === undefined ? '' : `; the oldest has waited ${age(queue.oldestWaitMs)}`;
  return html`<p class="queue">Queue: ${queue.waiting} waiting, ${queue.active} running, ${queue.delayed} to retry${oldest}.</p>`;
}

function agent({ name, card, replicas, queue }: TeamAgent) {
  const instances = replicas.map(
    (replica) =>
      html`<li><code>${replica.instanceId}</code>${replica.url ? html` at ${replica.url}` : ''}, last seen ${replica.lastSeen.toISOString()}</li>`,
  );
  return html`<section class="agent">
<h2>${name} <small>version ${card.version}</small></h2>
<p class="text">${card.description}</p>
${queueLine(queue)}
${skills(card)}
${cardVerdicts(card)}
<h3>Replicas (${replicas.length})</h3>
<ul>${instances}</ul>
</section>`;
}

/**
 * The team: every agent, its queue, its skills and which need an approval, its card in each shape
 * with the checker's verdict, and its live replicas.
 */
export function teamPage({ card, view }: { card: AgentCard; view: readonly TeamAgent[] | undefined }) {
  if (!view) return agent({ name: card.name, card, replicas: [] });
  if (view.length === 0)
    return html`<p class="empty">No agent of the team has a live replica in the registry.</p>`;
  return html`${[...view].sort((a, b) => a.name.localeCompare(b.name)).map(agent)}`;
}
