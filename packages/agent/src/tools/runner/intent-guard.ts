import { createHash } from 'node:crypto';
import type { IntentStatus, IntentStore } from '../../state/intents.ts';
import type { AnyTool } from '../define-tool.ts';
import type { Refusal } from './refusal.ts';

/** The same for the same tool and arguments: what handlers pass downstream to act at most once. */
export function idempotencyKey({ tool, input }: { tool: string; input: unknown }): string {
  return createHash('sha256')
    .update(`${tool}\u0000${JSON.stringify(input)}`)
    .digest('hex')
    .slice(0, 24);
}

/**
 * Whether a call may run. `intentKey` names the intent record a non-idempotent action holds until
 * it ends; `replay` hands back what the same action returned before.
 */
export type IntentClearance =
  | { kind: 'run'; intentKey?: string | undefined }
  | { kind: 'replay'; intentKey: string; result: unknown }
  | { kind: 'suppressed'; refusal: Refusal };

/**
 * Keeps a non-idempotent action from running twice in one scope (a conversation by default), across
 * retries, replicas and resumed runs, through the intent store's atomic `begin`.
 */
export class IntentGuard {
  readonly #o: { agent: string; scope: string; intents: IntentStore; now: () => Date };

  constructor(options: { agent: string; scope: string; intents: IntentStore; now: () => Date }) {
    this.#o = options;
  }

  /** Records the intent before a non-idempotent action runs; idempotent tools always run. */
  async clear({ tool, key }: { tool: AnyTool; key: string }): Promise<IntentClearance> {
    if (tool.idempotent) return { kind: 'run' };
    const { agent, scope, intents, now } = this.#o;
    const intentKey = `${agent}:${scope}:${tool.name}:${key}`;
    const begin = await intents.begin({ key: intentKey, tool: tool.name, now: now() });
    if (begin.started) return { kind: 'run', intentKey };
    if (begin.existing.status === 'succeeded') {
      return { kind: 'replay', intentKey, result: begin.existing.result };
    }
    return {
      kind: 'suppressed',
      refusal: {
        code: 'DUPLICATE_SUPPRESSED',
        message: `This ${tool.name} action was already started earlier and may have completed, so it was not run again.`,
        hint: 'Tell the user the action is being checked by an operator; do not retry it.',
      },
    };
  }

  /** Records how the action ended; `unknown` when it may have happened (a timeout, a cancel). */
  finish({
    key,
    status,
    result,
  }: {
    key: string;
    status: Exclude<IntentStatus, 'in_progress'>;
    result?: unknown;
  }): Promise<void> {
    const { intents, now } = this.#o;
    return intents.finish({ key, status, ...(result === undefined ? {} : { result }), now: now() });
  }
}
