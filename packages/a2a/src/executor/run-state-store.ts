import { ChatMessage, TaskState } from '@switchboard/agent';
import { z } from 'zod';

/** What an agent keeps of a conversation between A2A calls: its messages and its task state. */
export const RunState = z.object({ messages: z.array(ChatMessage), state: TaskState });
export type RunState = z.infer<typeof RunState>;

/**
 * Where run state lives between calls, by conversation key (the caller’s scope and the A2A
 * `contextId`; see `conversationScope`). Shared by all replicas
 * of an agent when backed by Redis, so a follow-up can land on any of them.
 */
export interface RunStateStore {
  load(conversation: string): Promise<RunState | undefined>;
  save(conversation: string, state: RunState): Promise<void>;
}

/** A run-state store in this process only. */
export class MemoryRunStateStore implements RunStateStore {
  readonly #states = new Map<string, string>();

  async load(conversation: string): Promise<RunState | undefined> {
    const stored = this.#states.get(conversation);
    return stored === undefined ? undefined : RunState.parse(JSON.parse(stored));
  }

  async save(conversation: string, state: RunState): Promise<void> {
    this.#states.set(conversation, JSON.stringify(state));
  }
}
