import type { AgentCard } from '@a2a-js/sdk';
import type { AgentRegistry } from '@switchboard/delegate';

/** The tag a card's skill carries when a call it makes can wait for a human (see `cardSkills`). */
export const REQUIRES_APPROVAL_TAG = 'requires-approval';

/** One agent of the team as the team page shows it. */
export interface TeamAgent {
  name: string;
  card: AgentCard;
  /** Its live replicas, from their heartbeats in the registry. */
  replicas: readonly { instanceId: string; lastSeen: Date; url?: string | undefined }[];
}

/** Where the team page reads the team from. */
export interface TeamView {
  read(): Promise<readonly TeamAgent[]>;
}

/**
 * The team as the registry knows it: every agent with a live replica, its card as its most recent
 * replica published it, and each replica's heartbeat.
 */
export function registryTeamView({ registry }: { registry: Pick<AgentRegistry, 'list'> }): TeamView {
  return {
    async read() {
      const entries = await registry.list();
      return entries.map((entry) => ({
        name: entry.name,
        card: entry.card,
        replicas: entry.instances.map((instance) => ({
          instanceId: instance.instanceId,
          lastSeen: instance.lastSeen,
          url: instance.metadata.url,
        })),
      }));
    },
  };
}
