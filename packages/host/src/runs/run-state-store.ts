import { AgentState, ChatMessage, trimHistory } from '@switchboard/agent';
import { z } from 'zod';
import { HostError } from '../errors.ts';

/** What an agent keeps of a conversation between A2A calls: its messages and its task state. */
export const RunState = z.object({ messages: z.array(ChatMessage), state: AgentState });
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

/** The turns of a conversation a run-state store keeps by default. */
export const DEFAULT_HISTORY_TURNS = 50;

/**
 * The state to store of a conversation: its last `maxTurns` turns, cut only where a user message
 * starts one, so a tool call is never parted from its results (`trimHistory`); the leading system
 * messages stay. Throws `INVALID_OPTIONS` for a `maxTurns` that is not a whole number of at least 1.
 *
 * @example
 * await redis.set(key, JSON.stringify(keepLastTurns(state, 50)));
 */
export function keepLastTurns(state: RunState, maxTurns: number): RunState {
  const { messages, droppedTurns } = trimHistory({ messages: state.messages, maxTurns });
  return droppedTurns === 0 ? state : { ...state, messages };
}

/** Checks a store's `maxTurns` option; returns it. */
export function checkedMaxTurns(store: string, maxTurns: number): number {
  if (!Number.isInteger(maxTurns) || maxTurns < 1) {
    throw new HostError('INVALID_OPTIONS', {
      message: `${store} maxTurns must be a whole number of at least 1, got ${maxTurns}.`,
    });
  }
  return maxTurns;
}

/** A run-state store in this process only; it keeps the last `maxTurns` turns of each conversation (default 50). */
export class MemoryRunStateStore implements RunStateStore {
  readonly #states = new Map<string, string>();
  readonly #maxTurns: number;

  constructor({ maxTurns = DEFAULT_HISTORY_TURNS }: { maxTurns?: number } = {}) {
    this.#maxTurns = checkedMaxTurns('MemoryRunStateStore', maxTurns);
  }

  async load(conversation: string): Promise<RunState | undefined> {
    const stored = this.#states.get(conversation);
    return stored === undefined ? undefined : RunState.parse(JSON.parse(stored));
  }

  async save(conversation: string, state: RunState): Promise<void> {
    this.#states.set(conversation, JSON.stringify(keepLastTurns(state, this.#maxTurns)));
  }
}
