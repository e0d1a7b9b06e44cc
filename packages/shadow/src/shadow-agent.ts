import {
  type Agent,
  type AnyTool,
  defineAgent,
  defineTool,
  type Principal,
  type ToolRisk,
} from '@switchboard/agent';
import { ShadowError } from './errors.ts';

/** A write or dangerous call a shadow asked for, recorded with its validated arguments, never run. */
export interface ShadowProposal {
  conversationId: string;
  callId: string;
  tool: string;
  /** The risk the live tool declares (`write` or `dangerous`). */
  risk: Exclude<ToolRisk, 'read'>;
  /** The arguments after the tool's schema: what the action would have been given. */
  arguments: unknown;
  principal?: Principal | undefined;
}

/** What a shadow agent differs in from the live one (each default: the live agent's). */
export interface ShadowCandidate {
  /** Another system prompt to try. */
  instructions?: string;
  /**
   * Other tools to try (another version, another set). Their risk is read as declared: write and
   * dangerous ones are recorded, not run, like the live agent's.
   */
  tools?: readonly AnyTool[];
}

/** Options of {@link shadowAgent}. */
export interface ShadowAgentOptions {
  /** The live agent's definition. */
  agent: Agent;
  candidate?: ShadowCandidate;
  /** Receives every write and dangerous call instead of its handler. Must not throw. */
  record: (proposal: ShadowProposal) => void | Promise<void>;
}

/** What the model reads back from a call that was recorded instead of run. */
export const NOT_RUN_IN_SHADOW = {
  recorded: true,
  done: false,
  note: 'Shadow run: this action was recorded with its arguments and not carried out.',
} as const;

/**
 * The agent a shadow runs: the live definition (same name, permissions and settings) with the
 * candidate's changes, where only `read` tools keep their handler. Every `write` and `dangerous`
 * tool is replaced by one with the same name, description and argument schema whose handler only
 * hands the validated arguments to `record`: the runner still validates them before any of it, and
 * nothing asks a human for an approval or takes an intent, because nothing will run. The card is not
 * built from this agent: a shadow is never served to callers under its own card.
 *
 * Delegation tools are `read` or `write` by the peer's skills; a shadow supervisor must get read
 * delegations that reach the peers' shadows (see `shadowPeerCard`), never the live peers.
 *
 * @example
 * const shadow = shadowAgent({ agent: orders, candidate: { instructions: NEW_PROMPT }, record: (p) => proposals.push(p) });
 */
export function shadowAgent({ agent, candidate = {}, record }: ShadowAgentOptions): Agent {
  if (!agent?.toolset || typeof record !== 'function') {
    throw new ShadowError('INVALID_OPTIONS', {
      message: 'shadowAgent needs agent (from defineAgent) and record (where recorded write calls go).',
    });
  }
  const tools = candidate.tools ?? agent.toolset.list();
  return defineAgent({
    name: agent.name,
    description: agent.description,
    instructions: candidate.instructions ?? agent.instructions,
    tools: tools.map((tool) => (tool.risk === 'read' ? tool : recordedInstead(tool, record))),
    permissions: {
      tools: tools.map((tool) => tool.name).filter((name) => permittedIn(agent, name, candidate)),
    },
    modelSettings: agent.modelSettings,
  });
}

/** The live agent's permissions hold for its own tools; a candidate's new tools are permitted. */
function permittedIn(agent: Agent, name: string, candidate: ShadowCandidate): boolean {
  return agent.permitted.has(name) || (candidate.tools !== undefined && !agent.toolset.has(name));
}

function recordedInstead(tool: AnyTool, record: ShadowAgentOptions['record']): AnyTool {
  const risk = tool.risk as ShadowProposal['risk'];
  return defineTool({
    name: tool.name,
    summary: tool.summary,
    whenToUse: tool.whenToUse,
    ...(tool.whenNotToUse ? { whenNotToUse: tool.whenNotToUse } : {}),
    input: tool.input,
    // Recording twice is harmless, and a recorded call needs no approval: nothing runs.
    risk: 'write',
    idempotent: true,
    fallbackMessage: tool.fallbackMessage,
    handler: async (input, context) => {
      await record({
        conversationId: context.conversationId,
        callId: context.callId,
        tool: tool.name,
        risk,
        arguments: input,
        principal: context.principal,
      });
      return NOT_RUN_IN_SHADOW;
    },
  });
}
