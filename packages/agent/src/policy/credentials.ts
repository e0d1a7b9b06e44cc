import { AgentError } from '../errors.ts';

/** Secrets the runtime hands to a handler. They never appear in prompts, declarations or results. */
export interface Credentials {
  /** The secret named `name`; throws a clear error when it was not configured. */
  get(name: string): string;
}

/**
 * Holds an agent's secrets and hands each tool only the ones it declared. The runtime also uses the
 * vault to scrub any secret value from tool results before the model sees them.
 *
 * @example
 * const vault = new CredentialVault({ values: { PAYMENTS_API_KEY: config.paymentsApiKey } });
 */
export class CredentialVault {
  readonly #values: ReadonlyMap<string, string>;

  constructor({ values = {} }: { values?: Readonly<Record<string, string>> } = {}) {
    this.#values = new Map(Object.entries(values));
  }

  /** The secrets a tool declared, and nothing else. */
  scoped({ tool, names }: { tool: string; names: readonly string[] }): Credentials {
    return {
      get: (name) => {
        if (!names.includes(name)) {
          throw new AgentError('INVALID_TOOL_DEFINITION', {
            message: `Tool "${tool}" asked for credential "${name}" without declaring it. Add "${name}" to its credentials list.`,
          });
        }
        const value = this.#values.get(name);
        if (value === undefined) {
          throw new AgentError('INVALID_OPTIONS', {
            message: `Credential "${name}" needed by tool "${tool}" is not configured. Pass it in the credentials of the agent run.`,
          });
        }
        return value;
      },
    };
  }

  /** Every secret value, for scrubbing outputs. */
  secrets(): string[] {
    return [...this.#values.values()];
  }
}
