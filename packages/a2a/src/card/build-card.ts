import type { AgentCard, AgentInterface, AgentSkill, SecurityScheme } from '@a2a-js/sdk';
import type { Agent } from '@switchboard/agent';

/** One way to reach the agent, as listed in the card's `supportedInterfaces`. */
export interface CardInterface {
  url: string;
  /** `JSONRPC`, `HTTP+JSON`, or a URI such as {@link BULLMQ_BINDING}. */
  protocolBinding: string;
  /** Default `1.0`. */
  protocolVersion?: string;
}

/** Options of {@link buildAgentCard}. */
export interface BuildAgentCardOptions {
  agent: Agent;
  /** The interfaces the agent serves, the preferred one first. */
  interfaces: readonly CardInterface[];
  /** The agent's own version (default `0.1.0`). */
  version?: string;
  provider?: { organization: string; url: string };
  /** Declare bearer-token auth as the card's security scheme and requirement. */
  bearerAuth?: boolean;
}

const humanize = (name: string) => name.replace(/[_-]+/g, ' ').replace(/^\w/, (c) => c.toUpperCase());

/**
 * A v1.0 Agent Card for a Switchboard agent: one skill per permitted tool, streaming on, and the
 * interfaces given. (The card issue refines skills, extensions and the v0.3 shape.)
 */
export function buildAgentCard({
  agent,
  interfaces,
  version = '0.1.0',
  provider,
  bearerAuth = false,
}: BuildAgentCardOptions): AgentCard {
  const skills: AgentSkill[] = agent.toolset
    .list()
    .filter((tool) => agent.permitted.has(tool.name))
    .map((tool) => ({
      id: tool.name,
      name: humanize(tool.name),
      description: `${tool.summary} Use when: ${tool.whenToUse}`,
      tags: [tool.risk],
      examples: [],
      inputModes: [],
      outputModes: [],
      securityRequirements: [],
    }));
  const supportedInterfaces: AgentInterface[] = interfaces.map((entry) => ({
    url: entry.url,
    protocolBinding: entry.protocolBinding,
    tenant: '',
    protocolVersion: entry.protocolVersion ?? '1.0',
  }));
  const securitySchemes: Record<string, SecurityScheme> = bearerAuth
    ? {
        bearer: {
          scheme: {
            $case: 'httpAuthSecurityScheme',
            value: { description: 'Bearer token', scheme: 'Bearer', bearerFormat: '' },
          },
        },
      }
    : {};
  return {
    name: agent.name,
    description: agent.description || `The ${agent.name} agent.`,
    supportedInterfaces,
    provider,
    version,
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes,
    securityRequirements: bearerAuth ? [{ schemes: { bearer: { list: [] } } }] : [],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills,
    signatures: [],
  };
}
