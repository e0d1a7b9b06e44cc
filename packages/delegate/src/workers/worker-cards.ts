import { AgentCard } from '@a2a-js/sdk';
import type { Logger } from '@switchboard/agent';
import { acceptPeerCards } from '../accept-peer-card.ts';
import { acceptSignedPeerCards, type PeerCardSignatures } from '../accept-signed-peer-cards.ts';
import type { AgentRegistry } from '../registry/agent-registry.ts';
import type { RegistryEntry } from '../registry/registry-entry.ts';

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
 * The workers' registry entries as the supervisor's peers: each card's signature checked against
 * the trusted keys when `signatures` is given (policy `signed` refuses an unsigned or wrongly signed
 * card, `any` warns), then checked and accepted as a peer card (`acceptPeerCards`); a refused card
 * is logged with one line naming the agent and the reason and left out, so one broken worker does
 * not keep the others from being delegated to.
 */
export async function workerCards({
  entries,
  signatures,
  logger,
}: {
  entries: readonly RegistryEntry[];
  signatures?: PeerCardSignatures;
  logger: Pick<Logger, 'warn'>;
}): Promise<AgentCard[]> {
  const cards = entries.map((entry) => ({
    json: AgentCard.toJSON(entry.card),
    source: `registry:${entry.name}`,
  }));
  const peers = signatures
    ? await acceptSignedPeerCards({ cards, signatures, logger })
    : acceptPeerCards({ cards, logger });
  return peers.flatMap((peer) => (peer.accepted ? [peer.card] : []));
}

/**
 * The logger's warnings, each said once: the workers' cards are read again every few seconds, and
 * a card refused (or accepted with a warning) is reported when first seen, not on every read.
 */
export function onceEach(logger: Logger): Pick<Logger, 'warn'> {
  const said = new Set<string>();
  return {
    warn: (fields, message) => {
      if (said.has(message)) return;
      said.add(message);
      logger.warn(fields, message);
    },
  };
}
