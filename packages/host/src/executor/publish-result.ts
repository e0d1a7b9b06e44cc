import { TaskState } from '@a2a-js/sdk';
import { type AgentRunResult, maskContacts, type StopReason } from '@switchboard/agent';
import { dataPart } from '@switchboard/protocol';
import { DECIDE_ON_THE_BOARD } from './message-decisions.ts';
import type { TaskPublisher } from './task-publisher.ts';

/** The task state each way a run can stop ends in. */
const FINAL_STATE: Record<StopReason, TaskState> = {
  model: TaskState.TASK_STATE_COMPLETED,
  approval: TaskState.TASK_STATE_INPUT_REQUIRED,
  maxSteps: TaskState.TASK_STATE_FAILED,
  failures: TaskState.TASK_STATE_FAILED,
  canceled: TaskState.TASK_STATE_CANCELED,
  clarify: TaskState.TASK_STATE_INPUT_REQUIRED,
  unsupported: TaskState.TASK_STATE_COMPLETED,
};

/** How {@link publishResult} ends a task. */
export interface PublishResultOptions {
  /** Also put a completed task's answer in its final status message (see `answerInStatus`). */
  answerInStatus: boolean;
  /** The message carried a decision that was not taken: the caller is told where decisions go. */
  refusedDecision: boolean;
  /** The caller is trusted (an operator or a service): it reads approval requests unmasked. */
  operator: boolean;
  /** Metadata of the final status: the run's cost (`COST_KEY`). */
  cost: Record<string, unknown>;
}

/**
 * Ends a task with a run's result: a completed one with its answer as the `answer` artifact, one that
 * waits for an approval with the requests as data (to a caller who is not trusted, the user, with
 * contact details masked, arguments too, since they may be about someone else), any other with the
 * run's own words.
 */
export function publishResult(
  publisher: TaskPublisher,
  result: AgentRunResult,
  { answerInStatus, refusedDecision, operator, cost }: PublishResultOptions,
): void {
  const state = FINAL_STATE[result.stopReason];
  if (state === TaskState.TASK_STATE_COMPLETED) {
    // The answer lives once, as the `answer` artifact (see `answerInStatus`).
    publisher.artifact(result.output);
    publisher.finish(state, answerInStatus ? result.output : undefined, [], cost);
    return;
  }
  if (result.stopReason === 'approval') {
    const note = refusedDecision ? `${DECIDE_ON_THE_BOARD}\n` : '';
    const shown = (text: string) => (operator ? text : maskContacts(text));
    const pendingApprovals = result.pendingApprovals.map((request) => ({
      ...request,
      action: shown(request.action),
      ...(request.details === undefined ? {} : { details: shown(request.details) }),
      // Contacts hold no JSON syntax, so masking the JSON text keeps it JSON.
      arguments: JSON.parse(shown(JSON.stringify(request.arguments))),
      text: shown(request.text),
    }));
    publisher.finish(state, shown(`${note}${result.output}`), [dataPart({ pendingApprovals })], cost);
    return;
  }
  publisher.finish(state, result.output, [], cost);
}
