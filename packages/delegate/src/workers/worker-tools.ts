import type { AgentCard } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import type { QueueTransportFactory } from '@switchboard/a2a-bullmq';
import type { Agent, Logger } from '@switchboard/agent';
import type { ServiceSigner } from '@switchboard/identity';
import type { PeerCardSignatures } from '../accept-signed-peer-cards.ts';
import type { AgentRegistry } from '../registry/agent-registry.ts';
import { clientFromRegistryEntry } from '../registry/registry-client.ts';
import { shadowPeerCard } from '../shadow-peers.ts';
import { type SupervisorSpec, supervisorAgent } from './supervisor-agent.ts';
import { findWorkers, onceEach, workerCards } from './worker-cards.ts';

/** How long one count of the workers' live replicas is used: delegations in flight poll it each second. */
const REPLICAS_FRESH_MS = 1_000;

/** What the delegation tools are built from: each peer's name, version and skills. */
const fingerprint = (cards: readonly AgentCard[]) =>
  JSON.stringify(cards.map((card) => [card.name, card.version, card.skills.map((skill) => skill.id)]));

/** What the worker tools are built from. */
export interface WorkerToolsOptions {
  /** The supervisor the tools are given to: its name, instructions and card skills. */
  supervisor: SupervisorSpec;
  registry: AgentRegistry;
  queue: QueueTransportFactory;
  names: readonly string[];
  hopTimeoutMs: number;
  /** How long a delegation waits while its worker has no live replica in the registry. */
  workerWaitMs: number;
  /** Signs each delegation's assertion: this service, for the user the request is for. */
  signer: ServiceSigner;
  /** Check the workers' card signatures against the trusted keys (see `workerCards`). */
  signatures?: PeerCardSignatures;
  logger: Logger;
  /** Where refused (or suspect) cards are reported (default: `onceEach(logger)`, each said once). */
  cardLogger?: Pick<Logger, 'warn'>;
}

/**
 * The supervisor agent over delegation tools that follow the registry: `refresh` re-reads the
 * workers' cards and rebuilds the tools when a worker came or changed its skills, so a worker
 * started after the supervisor is used without a restart. A worker whose entry lapses (crashed,
 * restarting, scaled to zero) keeps its tools with its last card: its queue still takes the work, and
 * a delegation waits `workerWaitMs` for a replica before it says the worker is not reachable. A card
 * the registry now holds but the check refuses takes the worker's tools away. Requests already running
 * keep their tools.
 */
export class WorkerTools {
  #agent: Agent;
  /** The supervisor its shadow runs (delegating to the workers' shadows), made when first asked for. */
  #shadow: Agent | undefined;
  #fingerprint: string;
  /** Each worker's last accepted card, by name. */
  readonly #peers = new Map<string, AgentCard>();
  readonly #clients = new Map<string, Promise<Client>>();
  #replicas: { at: number; counts: Promise<Map<string, number>> } | undefined;

  readonly #o: WorkerToolsOptions;
  readonly #cardWarnings: Pick<Logger, 'warn'>;

  constructor(o: WorkerToolsOptions, peers: readonly AgentCard[]) {
    this.#o = o;
    this.#cardWarnings = o.cardLogger ?? onceEach(o.logger);
    for (const card of peers) this.#peers.set(card.name, card);
    this.#fingerprint = fingerprint(peers);
    this.#agent = this.#build(peers);
  }

  get agent(): Agent {
    return this.#agent;
  }

  /**
   * The supervisor as its shadow runs it (`SUPERVISOR_SHADOW_*`): the same workers, each reached on
   * its shadow queue (`shadowPeerCard`), so nothing the shadow delegates reaches a live worker.
   */
  get shadowAgent(): Agent {
    this.#shadow ??= this.#build([...this.#peers.values()].map(shadowPeerCard), 'shadow');
    return this.#shadow;
  }

  /** Re-reads the registry; rebuilds the tools when the workers changed. */
  async refresh(): Promise<void> {
    const { registry, names, signatures } = this.#o;
    const { entries } = await findWorkers({ registry, names });
    const accepted = await workerCards({
      entries,
      logger: this.#cardWarnings,
      ...(signatures ? { signatures } : {}),
    });
    for (const entry of entries) {
      const card = accepted.find((peer) => peer.name === entry.name);
      if (card) this.#peers.set(entry.name, card);
      else this.#peers.delete(entry.name);
    }
    const peers = names.flatMap((name) => this.#peers.get(name) ?? []);
    const next = fingerprint(peers);
    if (next === this.#fingerprint) return;
    this.#fingerprint = next;
    this.#clients.clear();
    this.#agent = this.#build(peers);
    this.#shadow = undefined;
  }

  /** The live replicas of a worker in the registry; one registry read serves every delegation in flight. */
  async #liveReplicas(name: string): Promise<number> {
    if (!this.#replicas || Date.now() - this.#replicas.at > REPLICAS_FRESH_MS) {
      const counts = this.#o.registry
        .list()
        .then((entries) => new Map(entries.map((entry) => [entry.name, entry.instances.length])));
      this.#replicas = { at: Date.now(), counts };
    }
    return (await this.#replicas.counts).get(name) ?? 0;
  }

  #build(peers: readonly AgentCard[], role: 'live' | 'shadow' = 'live'): Agent {
    const { queue, hopTimeoutMs, workerWaitMs, signer, logger } = this.#o;
    const { agent } = supervisorAgent(this.#o.supervisor, {
      peers,
      timeoutMs: hopTimeoutMs,
      // A worker's shadow is not in the registry: its delegations just wait for the hop timeout.
      ...(role === 'live'
        ? { liveReplicas: (name: string) => this.#liveReplicas(name), replicaWaitMs: workerWaitMs }
        : {}),
      signer,
      logger,
      clientFor: (card) => {
        const key = `${role}:${card.name}`;
        let client = this.#clients.get(key);
        if (!client) {
          client = clientFromRegistryEntry({ entry: { name: card.name, card, instances: [] }, queue });
          this.#clients.set(key, client);
        }
        return client;
      },
    });
    logger.info(
      { peers: peers.map((card) => card.name), tools: agent.toolset.list().map((tool) => tool.name), role },
      'delegation tools built',
    );
    return agent;
  }
}
