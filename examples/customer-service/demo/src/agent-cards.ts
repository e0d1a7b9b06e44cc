import { AgentCard } from '@a2a-js/sdk';
import { BULLMQ_BINDING, defaultQueueAddress, queueUrl } from '@switchboard/a2a-bullmq';
import type { Agent } from '@switchboard/agent';
import { renderAgentCard } from '@switchboard/cards';
import {
  COMMS_SKILLS,
  createCommsAgent,
  createInventoryAgent,
  createOrdersAgent,
  INVENTORY_SKILLS,
  MemoryShopStore,
  ORDERS_SKILLS,
  SHOP_SUPERVISOR,
} from '@switchboard/customer-service';
import { acceptPeerCards, supervisorAgent } from '@switchboard/delegate';
import { buildAgentCard } from '@switchboard/host';
import { a2aHttpInterfaces } from '@switchboard/host/http';
import { OfflineModel } from '@switchboard/offline-model';
import type { SkillSpec } from '@switchboard/protocol';

/** Where the committed cards live, relative to the repository root. */
export const AGENT_CARDS_DIR = 'agent-cards';

/**
 * The HTTP port each agent's card names: the services' defaults (`switchboard dev` without
 * `--port`), so the committed cards are the same on every machine.
 */
export const CARD_PORTS = { supervisor: 4100, orders: 4101, inventory: 4102, comms: 4103 } as const;

/** The Redis namespace the committed cards' queue interfaces name (the services' default). */
export const CARD_NAMESPACE = 'switchboard';

/** The version the services publish in their cards (`runAgentService`'s default). */
export const CARD_VERSION = '0.1.0';

/** One committed card file: its path from the repository root (with `/`) and its exact text. */
export interface AgentCardFile {
  path: string;
  content: string;
}

const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** The card a service publishes for `agent`, built as `startServing` builds it. */
function serviceCard(agent: Agent, skills: readonly SkillSpec[] | undefined): AgentCard {
  const port = CARD_PORTS[agent.name as keyof typeof CARD_PORTS];
  if (port === undefined) throw new Error(`No card port for agent "${agent.name}": add it to CARD_PORTS.`);
  return buildAgentCard({
    agent,
    version: CARD_VERSION,
    bearerAuth: true,
    interfaces: [
      ...a2aHttpInterfaces({ baseUrl: `http://127.0.0.1:${port}` }),
      { url: queueUrl(defaultQueueAddress(agent.name, CARD_NAMESPACE)), protocolBinding: BULLMQ_BINDING },
    ],
    ...(skills ? { skills } : {}),
  });
}

/**
 * The v1.0 cards of the four agents of the customer-service system, as their services publish them
 * with the default ports and namespace: the workers (orders, inventory, comms), then the supervisor,
 * whose delegation tools (and so its skill) come from the workers' cards. No Redis, model or network
 * is touched: the workers run on an empty in-memory shop, and the supervisor's clients are never made.
 */
export function buildSystemCards(): AgentCard[] {
  const store = new MemoryShopStore();
  const workers = [
    serviceCard(createOrdersAgent({ store }), ORDERS_SKILLS),
    serviceCard(createInventoryAgent({ store }), INVENTORY_SKILLS),
    serviceCard(createCommsAgent({ store, model: new OfflineModel() }), COMMS_SKILLS),
  ];
  // The supervisor reads its peers from the registry: sorted by name, as JSON, accepted one by one.
  const peers = acceptPeerCards({
    cards: [...workers]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((card) => ({ json: AgentCard.toJSON(card), source: `registry:${card.name}` })),
  }).flatMap((peer) => {
    if (!peer.accepted) throw new Error(`The card of a worker is not valid: ${peer.reason}`);
    return [peer.card];
  });
  const supervisor = supervisorAgent(SHOP_SUPERVISOR, {
    peers,
    clientFor: () => {
      throw new Error('Generating cards never delegates.');
    },
  });
  return [...workers, serviceCard(supervisor.agent, supervisor.skills)];
}

/**
 * The committed card files of every agent, rendered in memory: for each, `card.v1.0.json` (the
 * canonical v1.0 card as ProtoJSON), `card.v0.3.json` (its v0.3 translation), and
 * `card.v0.3.warnings.json` when the translation left something out. Sorted by path.
 */
export function renderAgentCardFiles(): AgentCardFile[] {
  const files = buildSystemCards().flatMap((card) => {
    const dir = `${AGENT_CARDS_DIR}/${card.name}`;
    const v1 = renderAgentCard({ card, version: '1.0' });
    const v03 = renderAgentCard({ card, version: '0.3' });
    return [
      { path: `${dir}/card.v1.0.json`, content: pretty(v1.card) },
      { path: `${dir}/card.v0.3.json`, content: pretty(v03.card) },
      ...(v03.warnings.length > 0
        ? [{ path: `${dir}/card.v0.3.warnings.json`, content: pretty(v03.warnings) }]
        : []),
    ];
  });
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
