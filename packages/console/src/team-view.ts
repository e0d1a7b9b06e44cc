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
  /** Its queue: what waits, what runs, and how long the oldest waiting job has waited (ms). */
  queue?: AgentQueue | undefined;
}

/** An agent's queue as the team page shows it (`QueueDepth` of `@switchboard/a2a-bullmq` is one). */
export interface AgentQueue {
  waiting: number;
  active: number;
  delayed: number;
  oldestWaitMs?: number;
}

/** Where the team page reads the team from. */
export interface TeamView {
  read(): Promise<readonly TeamAgent[]>;
}

/**
 * The team as the registry knows it: every agent with a live replica, its card as its most recent
 * replica published it, each replica's heartbeat, and (with `queueOf`) its queue's depth.
 */
export function registryTeamView({
  registry,
  queueOf,
}: {
  registry: Pick<AgentRegistry, 'list'>;
  /** Reads an agent's queue by the agent's name (e.g. with `QueueDepthReader`); default: not shown. */
  queueOf?: (agent: string) => Promise<AgentQueue>;
}): TeamView {
  return {
    async read() {
      const entries = await registry.list();
      return Promise.all(
        entries.map(async (entry) => ({
          name: entry.name,
          card: entry.card,
          replicas: entry.instances.map((instance) => ({
            instanceId: instance.instanceId,
            lastSeen: instance.lastSeen,
            url: instance.metadata.url,
          })),
          queue: queueOf ? await queueOf(entry.name) : undefined,
        })),
      );
    },
  };
}
