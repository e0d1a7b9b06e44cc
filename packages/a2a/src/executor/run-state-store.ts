import { ChatMessage, TaskState } from '@switchboard/agent';
import { z } from 'zod';

/** What an agent keeps of a conversation between A2A calls: its messages and its task state. */
export const RunState = z.object({ messages: z.array(ChatMessage), state: TaskState });
export type RunState = z.infer<typeof RunState>;

/**
 * Where run state lives between calls, by A2A `contextId` (the conversation). Shared by all replicas
 * of an agent when backed by Redis, so a follow-up can land on any of them.
 */
export interface RunStateStore {
  load(contextId: string): Promise<RunState | undefined>;
  save(contextId: string, state: RunState): Promise<void>;
}

/** A run-state store in this process only. */
export class MemoryRunStateStore implements RunStateStore {
  readonly #states = new Map<string, string>();

  async load(contextId: string): Promise<RunState | undefined> {
    const stored = this.#states.get(contextId);
    return stored === undefined ? undefined : RunState.parse(JSON.parse(stored));
  }

  async save(contextId: string, state: RunState): Promise<void> {
    this.#states.set(contextId, JSON.stringify(state));
  }
}
