import {
  a2aHttpInterfaces,
  BULLMQ_BINDING,
  buildAgentCard,
  defaultQueueAddress,
  queueUrl,
  renderAgentCard,
} from '@switchboard/a2a';
import type { Agent } from '@switchboard/agent';
import { createOrdersDesk } from './shop-agent.js';

/**
 * The base URL an agent service listens on by default. The committed cards use it (and each
 * agent's default queue address), so they are the same on every machine.
 */
export const DEFAULT_SERVICE_BASE_URL = 'http://localhost:8080';

/** Where the committed cards live, relative to the repository root. */
export const AGENT_CARDS_DIR = 'agent-cards';

/** Every agent the repository defines, with example requests per tool for its skills. */
const REPO_AGENTS: readonly { create: () => Agent; examples: Record<string, string[]> }[] = [
  {
    create: createOrdersDesk,
    examples: {
      get_order: ['Where is order A10086?', 'What is in order A10087?'],
      estimate_delivery: ['When will order A10087 arrive?'],
      refund_order: ['Please refund order A10090.'],
    },
  },
];

/** One committed card file: its path from the repository root (with `/`) and its exact text. */
export interface AgentCardFile {
  path: string;
  content: string;
}

const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/**
 * The committed card files of every agent, rendered in memory: for each, `card.v1.0.json` (the
 * canonical v1.0 card as ProtoJSON), `card.v0.3.json` (its v0.3 translation), and
 * `card.v0.3.warnings.json` when the translation left something out. Sorted by path.
 */
export function renderAgentCardFiles(): AgentCardFile[] {
  const files = REPO_AGENTS.flatMap(({ create, examples }) => {
    const agent = create();
    const card = buildAgentCard({
      agent,
      interfaces: [
        ...a2aHttpInterfaces({ baseUrl: DEFAULT_SERVICE_BASE_URL }),
        { url: queueUrl(defaultQueueAddress(agent.name)), protocolBinding: BULLMQ_BINDING },
      ],
      bearerAuth: true,
      examples,
    });
    const dir = `${AGENT_CARDS_DIR}/${agent.name}`;
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
