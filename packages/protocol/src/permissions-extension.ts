import type { AgentExtension } from '@a2a-js/sdk';
import type { Agent } from '@switchboard/agent';
import { z } from 'zod';

/**
 * The URI of Switchboard's permission-manifest extension of the Agent Card (declared in
 * `capabilities.extensions`, A2A §4.6). A breaking change of its params gets a new URI.
 */
export const PERMISSIONS_EXTENSION_URI = 'urn:switchboard:a2a:extension:permissions:v1';

/** One permitted tool as the manifest publishes it. */
export const PermissionManifestTool = z.object({
  /** The tool's name, also the id of its skill. */
  name: z.string().min(1),
  /** `read`, `write` or `dangerous`. */
  risk: z.enum(['read', 'write', 'dangerous']),
  /**
   * Whether a call waits for a human approval: a dangerous tool's own, or, for a tool that hands
   * work to another agent (`leadsTo: 'dangerous'`), that agent's.
   */
  requiresApproval: z.boolean(),
  /** Whether running it twice with the same arguments is harmless. */
  idempotent: z.boolean(),
});
/** One permitted tool as the manifest publishes it. */
export type PermissionManifestTool = z.infer<typeof PermissionManifestTool>;

/** The `params` of the permission-manifest extension: every tool the agent may call, by name. */
export const PermissionManifest = z.object({
  tools: z.array(PermissionManifestTool),
  /** Which tools stand behind each skill, when the card's skills group tools (absent: one per tool). */
  skills: z.array(z.object({ id: z.string().min(1), tools: z.array(z.string().min(1)) })).optional(),
});
/** The `params` of the permission-manifest extension. */
export type PermissionManifest = z.infer<typeof PermissionManifest>;

/** The tools an agent may call, sorted by name, so that the card is the same on every build. */
export function permittedTools(agent: Agent) {
  return agent.toolset
    .list()
    .filter((tool) => agent.permitted.has(tool.name))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The permission manifest of an agent as a card extension: each permitted tool with its risk,
 * whether it waits for a human approval, and whether it is idempotent. Informational: a client
 * may ignore it (`required: false`).
 *
 * @example
 * card.capabilities?.extensions.find((ext) => ext.uri === PERMISSIONS_EXTENSION_URI)?.params;
 * // { tools: [{ name: 'refund_order', risk: 'dangerous', requiresApproval: true, idempotent: false }] }
 */
export function permissionsExtension({
  agent,
  skills,
}: {
  agent: Agent;
  skills?: readonly { id: string; tools: readonly string[] }[];
}): AgentExtension {
  const params: PermissionManifest = {
    ...(skills
      ? {
          skills: [...skills]
            .map(({ id, tools }) => ({ id, tools: [...tools].sort() }))
            .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
        }
      : {}),
    tools: permittedTools(agent).map((tool) => ({
      name: tool.name,
      risk: tool.risk,
      requiresApproval: (tool.leadsTo ?? tool.risk) === 'dangerous',
      idempotent: tool.idempotent,
    })),
  };
  return {
    uri: PERMISSIONS_EXTENSION_URI,
    description:
      'The permission manifest of this agent: every tool it may call, with its risk, whether a human must approve each call, and whether a retry is harmless.',
    required: false,
    params,
  };
}
