import { AgentError } from '../errors.ts';
import type { AnyTool } from '../tools/define-tool.ts';
import { Toolset } from '../tools/toolset.ts';

/** Everything that defines an agent. See {@link defineAgent}. */
export interface AgentOptions {
  /** Short id-like name, e.g. `orders`; used in spans, audit records and approval texts. */
  name: string;
  /** One or two sentences on what the agent does, for cards and delegation tools. */
  description?: string;
  /** The system prompt: the agent's working memory, sent first on every request. */
  instructions: string;
  tools?: readonly AnyTool[];
  /**
   * The permission set: the tools this agent may call (default: all of its tools). A tool left out
   * is neither declared to the model nor run if the model asks for it.
   */
  permissions?: { tools: readonly string[] };
  /** Defaults for every model request of this agent. */
  modelSettings?: { temperature?: number; maxTokens?: number; parallelToolCalls?: boolean };
}

/** A checked, immutable agent definition. */
export interface Agent {
  readonly name: string;
  readonly description: string;
  readonly instructions: string;
  readonly toolset: Toolset;
  readonly permitted: ReadonlySet<string>;
  readonly modelSettings: Readonly<NonNullable<AgentOptions['modelSettings']>>;
}

/**
 * Defines an agent: its own system prompt, tools and permissions. Checks the definition at once.
 *
 * @example
 * const orders = defineAgent({
 *   name: 'orders',
 *   instructions: 'You help users with their orders. Use the tools; never guess order data.',
 *   tools: [getOrder, refundOrder],
 * });
 */
export function defineAgent({
  name,
  description = '',
  instructions,
  tools = [],
  permissions,
  modelSettings = {},
}: AgentOptions): Agent {
  if (!/^[a-z][a-z0-9_-]{0,63}$/i.test(name ?? '')) {
    throw new AgentError('INVALID_OPTIONS', {
      message: `Agent name "${name}" must start with a letter and use only letters, digits, "_" or "-".`,
    });
  }
  if (!instructions?.trim()) {
    throw new AgentError('INVALID_OPTIONS', {
      message: `Agent "${name}" has no instructions: give it a system prompt that says its job and its limits.`,
    });
  }
  const toolset = new Toolset(tools);
  const permittedNames = permissions?.tools ?? toolset.names;
  const unknown = permittedNames.filter((tool) => !toolset.has(tool));
  if (unknown.length > 0) {
    throw new AgentError('INVALID_OPTIONS', {
      message: `Agent "${name}" permits tools it does not have: ${unknown.join(', ')}. Add them to tools or remove them from permissions.`,
    });
  }
  return Object.freeze({
    name,
    description,
    instructions,
    toolset,
    permitted: new Set(permittedNames),
    modelSettings: { ...modelSettings },
  });
}
