import { AgentCard } from '@a2a-js/sdk';
import { acceptPeerCards } from '@switchboard/a2a/delegate';
import type { AgentRegistry, RegistryEntry } from '@switchboard/a2a/registry';
import type { Logger } from '@switchboard/agent';

/** The registry's entries of the named workers, and the names it has no entry for. */
export async function findWorkers({
  registry,
  names,
}: {
  registry: AgentRegistry;
  names: readonly string[];
}): Promise<{ entries: RegistryEntry[]; missing: string[] }> {
  const entries = (await registry.list()).filter((entry) => names.includes(entry.name));
  const missing = names.filter((name) => !entries.some((entry) => entry.name === name));
  return { entries, missing };
}

/**
 * The workers' registry entries as the supervisor's peers: each card checked and accepted as a peer
 * card (`acceptPeerCards`); a bad card is logged and left out, so one broken worker does not keep
 * the others from being delegated to.
 */
export function workerCards({
  entries,
  logger,
}: {
  entries: readonly RegistryEntry[];
  logger: Logger;
}): AgentCard[] {
  return acceptPeerCards({
    cards: entries.map((entry) => ({ json: AgentCard.toJSON(entry.card), source: `registry:${entry.name}` })),
    logger,
  }).flatMap((peer) => (peer.accepted ? [peer.card] : []));
}
