import type { AgentCard, AgentInterface, SecurityScheme } from '@a2a-js/sdk';
import { duplicateInterfacesForLegacy } from '@a2a-js/sdk/compat/v0_3';
import type { Agent } from '@switchboard/agent';
import { cardSkills, permissionsExtension, type SkillSpec, skillProblems } from '@switchboard/protocol';
import { HostError } from '../errors.ts';

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
  /**
   * The interfaces the agent serves, the preferred one first: e.g. `a2aHttpInterfaces({ baseUrl })`
   * and `{ url: queueUrl(address), protocolBinding: BULLMQ_BINDING }`.
   */
  interfaces: readonly CardInterface[];
  /** The agent's own version (default `0.1.0`). */
  version?: string;
  provider?: { organization: string; url: string };
  /** Declare bearer-token auth as the card's security scheme and requirement (default false). */
  bearerAuth?: boolean;
  /**
   * Declare an identity provider's tokens too: an OpenID Connect scheme (`oidc`) with this discovery
   * URL (`openIdConfigurationUrl(issuer)`), required as an alternative to the bearer scheme.
   */
  openIdConnectUrl?: string;
  /**
   * List the JSON-RPC and HTTP+JSON interfaces a second time with protocol version `0.3`, after
   * the others, so that v0.3 clients find them and the SDK accepts their requests (default true).
   * Turn it off together with `createA2aHttpApp({ legacyCompat: false })`.
   */
  legacyCompat?: boolean;
  /** Example requests per tool name, shown as the examples of that tool's skill. */
  examples?: Readonly<Record<string, readonly string[]>>;
  /**
   * The card's skills as capabilities that group tools (default: one skill per permitted tool).
   * Every permitted tool must belong to a skill; the grouping is published in the permission manifest.
   */
  skills?: readonly SkillSpec[];
}

const LEGACY_BINDINGS = ['JSONRPC', 'HTTP+JSON'];

/**
 * The canonical v1.0 Agent Card of a Switchboard agent, derived from its definition only, so two
 * builds from the same options are deep-equal (skills sorted by tool name, interfaces in the order
 * given). It holds:
 * - one skill per permitted tool (id = tool name; description from its summary and when to use it;
 *   tags with its risk; the examples given);
 * - capabilities: streaming, no push notifications, no extended card, and the permission manifest
 *   as the extension {@link PERMISSIONS_EXTENSION_URI};
 * - a bearer security scheme and requirement when `bearerAuth` is set, and an OpenID Connect one
 *   when `openIdConnectUrl` is, each a requirement of its own (either is accepted);
 * - every interface given, plus v0.3 copies of the HTTP ones unless `legacyCompat` is false.
 *
 * @example
 * const card = buildAgentCard({
 *   agent,
 *   interfaces: [
 *     ...a2aHttpInterfaces({ baseUrl: 'https://orders.example.com' }),
 *     { url: queueUrl(defaultQueueAddress(agent.name)), protocolBinding: BULLMQ_BINDING },
 *   ],
 *   bearerAuth: true,
 *   examples: { get_order: ['Where is order A20417?'] },
 * });
 */
export function buildAgentCard({
  agent,
  interfaces,
  version = '0.1.0',
  provider,
  bearerAuth = false,
  openIdConnectUrl,
  legacyCompat = true,
  examples = {},
  skills,
}: BuildAgentCardOptions): AgentCard {
  checkOptions({ agent, interfaces, examples, openIdConnectUrl });
  const problems = skills ? skillProblems(agent, skills) : [];
  if (problems.length > 0) {
    throw new HostError('INVALID_OPTIONS', {
      message: `buildAgentCard skills are not valid: ${problems.join('; ')}.`,
    });
  }
  const supportedInterfaces: AgentInterface[] = interfaces.map((entry) => ({
    url: entry.url,
    protocolBinding: entry.protocolBinding,
    tenant: '',
    protocolVersion: entry.protocolVersion ?? '1.0',
  }));
  const securitySchemes: Record<string, SecurityScheme> = {
    ...(bearerAuth
      ? {
          bearer: {
            scheme: {
              $case: 'httpAuthSecurityScheme',
              value: { description: 'Bearer token', scheme: 'Bearer', bearerFormat: '' },
            },
          },
        }
      : {}),
    ...(openIdConnectUrl
      ? {
          oidc: {
            scheme: {
              $case: 'openIdConnectSecurityScheme',
              value: {
                description: "The identity provider's access token, as a bearer token",
                openIdConnectUrl,
              },
            },
          },
        }
      : {}),
  };
  return {
    name: agent.name,
    description: agent.description || `The ${agent.name} agent.`,
    supportedInterfaces: legacyCompat
      ? duplicateInterfacesForLegacy(supportedInterfaces, LEGACY_BINDINGS)
      : supportedInterfaces,
    provider: provider ? { organization: provider.organization, url: provider.url } : undefined,
    version,
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extensions: [permissionsExtension({ agent, ...(skills ? { skills } : {}) })],
      extendedAgentCard: false,
    },
    securitySchemes,
    // One requirement per scheme: a client satisfies the card with any one of them.
    securityRequirements: Object.keys(securitySchemes).map((name) => ({ schemes: { [name]: { list: [] } } })),
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: cardSkills({ agent, skills, examples }),
    signatures: [],
  };
}

function checkOptions({
  agent,
  interfaces,
  examples,
  openIdConnectUrl,
}: Pick<Required<BuildAgentCardOptions>, 'agent' | 'interfaces' | 'examples'> &
  Pick<BuildAgentCardOptions, 'openIdConnectUrl'>): void {
  const problems: string[] = [];
  if (openIdConnectUrl !== undefined && !URL.canParse(openIdConnectUrl)) {
    problems.push(
      'openIdConnectUrl must be a URL, the discovery document of the identity provider: openIdConfigurationUrl(issuer)',
    );
  }
  if (!agent?.toolset || !(agent.permitted instanceof Set)) {
    problems.push('agent must be an agent definition, e.g. from defineAgent(...)');
  }
  if (!Array.isArray(interfaces) || interfaces.length === 0) {
    problems.push(
      'interfaces must list at least one interface, e.g. a2aHttpInterfaces({ baseUrl }) or { url: queueUrl(address), protocolBinding: BULLMQ_BINDING }',
    );
  }
  for (const [tool, list] of Object.entries(examples)) {
    if (agent?.permitted instanceof Set && !agent.permitted.has(tool)) {
      problems.push(
        `examples names "${tool}", which is not a tool this agent may call (it may call: ${[...agent.permitted].sort().join(', ') || 'none'})`,
      );
    }
    if (!Array.isArray(list) || list.some((item) => typeof item !== 'string' || !item.trim())) {
      problems.push(`examples.${tool} must be a list of non-empty strings`);
    }
  }
  if (problems.length > 0) {
    throw new HostError('INVALID_OPTIONS', {
      message: `buildAgentCard options are not valid: ${problems.join('; ')}.`,
    });
  }
}
