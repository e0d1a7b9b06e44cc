import { AgentError } from '../errors.ts';
import type { ToolDeclaration } from '../model/messages.ts';
import type { AnyTool } from './define-tool.ts';
import { declareTool } from './tool-declaration.ts';

/**
 * The tools of one agent, by name. Refuses two tools with the same name at construction.
 *
 * @example
 * const tools = new Toolset([getOrder, estimateDelivery]);
 */
export class Toolset {
  readonly #tools = new Map<string, AnyTool>();
  /** Each tool's declaration, made once: generating JSON Schema on every model call costs. */
  readonly #declarations = new Map<string, ToolDeclaration>();

  constructor(tools: readonly AnyTool[] = []) {
    for (const tool of tools) this.add(tool);
  }

  /** Registers a tool; throws `DUPLICATE_TOOL` when the name is taken. */
  add(tool: AnyTool): this {
    if (this.#tools.has(tool.name)) {
      throw new AgentError('DUPLICATE_TOOL', {
        message: `Tool "${tool.name}" is registered twice. Give each tool of an agent its own name.`,
        details: { tool: tool.name },
      });
    }
    this.#tools.set(tool.name, tool);
    return this;
  }

  get(name: string): AnyTool | undefined {
    return this.#tools.get(name);
  }

  has(name: string): boolean {
    return this.#tools.has(name);
  }

  get names(): string[] {
    return [...this.#tools.keys()];
  }

  list(): AnyTool[] {
    return [...this.#tools.values()];
  }

  /**
   * The declarations of the given tools (default: all), in registration order. Each is made once
   * and frozen, so every model call shares it.
   */
  declarations(names: readonly string[] = this.names): ToolDeclaration[] {
    return this.list()
      .filter((tool) => names.includes(tool.name))
      .map((tool) => {
        let declaration = this.#declarations.get(tool.name);
        if (!declaration) {
          declaration = deepFreeze(declareTool(tool));
          this.#declarations.set(tool.name, declaration);
        }
        return declaration;
      });
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
