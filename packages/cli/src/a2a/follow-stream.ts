import type { StreamResponse } from '@a2a-js/sdk';
import { answerOf } from '@switchboard/protocol';
import {
  outcomeOfTask,
  pendingApprovalsOf,
  stateName,
  type TaskOutcome,
  type TaskStateName,
  textOf,
  WAITING_STATES,
} from './task-outcome.ts';

/** A progress update the agent published while working: "Step 1: running get_order", … */
export interface ProgressUpdate {
  text: string;
  state: TaskStateName;
  /** The structured facts the agent attached (step, tool, delegate, …), as plain JSON. */
  metadata: Record<string, unknown>;
}

/** Options of {@link followStream}. */
export interface FollowStreamOptions {
  /** The SDK client's `sendMessageStream(...)` or `resubscribeTask(...)`. */
  events: AsyncIterable<StreamResponse>;
  /** Called for each progress update as it arrives. */
  onProgress?: (update: ProgressUpdate) => void;
}

/**
 * Reads a task's stream to its end: the task, its working status updates (reported as progress),
 * the `answer` artifact and the final status. Returns where the task stands when the stream ended
 * and every progress update. A reply that is a plain message counts as a completed answer.
 */
export async function followStream({
  events,
  onProgress = () => {},
}: FollowStreamOptions): Promise<{ outcome: TaskOutcome; progress: ProgressUpdate[] }> {
  const progress: ProgressUpdate[] = [];
  let outcome: TaskOutcome = {
    taskId: '',
    contextId: '',
    state: 'unknown',
    statusText: '',
    answer: undefined,
    pendingApprovals: [],
  };
  for await (const event of events) {
    const payload = event.payload;
    if (!payload) continue;
    switch (payload.$case) {
      case 'task': {
        outcome = outcomeOfTask(payload.value);
        // A task that starts working with a status line (other agents may write one): progress too.
        const { state, statusText } = outcome;
        if ((state === 'working' || state === 'submitted') && statusText) {
          const update = {
            text: statusText,
            state,
            metadata: { ...(payload.value.status?.message?.metadata ?? {}) },
          };
          progress.push(update);
          onProgress(update);
        }
        break;
      }
      case 'message': {
        const text = textOf(payload.value);
        outcome = {
          ...outcome,
          contextId: payload.value.contextId,
          state: 'completed',
          statusText: text,
          answer: text,
        };
        break;
      }
      case 'artifactUpdate': {
        const { artifact, append } = payload.value;
        const text = artifact ? answerOf([artifact]) : undefined;
        if (text !== undefined) outcome.answer = append && outcome.answer ? outcome.answer + text : text;
        break;
      }
      case 'statusUpdate': {
        const { status, taskId, contextId, metadata } = payload.value;
        const state = stateName(status?.state);
        const text = textOf(status?.message);
        outcome = {
          ...outcome,
          taskId: taskId || outcome.taskId,
          contextId: contextId || outcome.contextId,
          state,
          statusText: text,
          pendingApprovals: WAITING_STATES.has(state) ? pendingApprovalsOf(status?.message) : [],
        };
        if ((state === 'working' || state === 'submitted') && text) {
          // Switchboard's agents put the facts on the status message; other agents may put them on the event.
          const update = {
            text,
            state,
            metadata: { ...(metadata ?? {}), ...(status?.message?.metadata ?? {}) },
          };
          progress.push(update);
          onProgress(update);
        }
        break;
      }
    }
  }
  return { outcome, progress };
}
