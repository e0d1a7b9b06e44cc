import type { Message, Task } from '@a2a-js/sdk';
import { ApprovalRequest } from '@switchboard/agent';
import { stateName, type TaskStateName, textOf } from '@switchboard/delegate';
import { answerOf } from '@switchboard/protocol';
import { z } from 'zod';
import { CliError } from '../errors.ts';

// The state names and message text are the team client's (`@switchboard/delegate`), re-exported for the commands.
export { stateName, type TaskStateName, textOf } from '@switchboard/delegate';

/** States after which nothing more happens to a task. */
export const FINISHED_STATES: ReadonlySet<TaskStateName> = new Set([
  'completed',
  'failed',
  'canceled',
  'rejected',
]);

/** States in which the task waits for someone: it has stopped working but is not finished. */
export const WAITING_STATES: ReadonlySet<TaskStateName> = new Set(['input-required', 'auth-required']);

/**
 * One dangerous action a task waits on, as the agent publishes it in the data part
 * `{ pendingApprovals: [...] }` of an input-required status message (the runtime's `ApprovalRequest`).
 */
export const PendingApproval = ApprovalRequest;
export type PendingApproval = ApprovalRequest;

const PendingApprovals = z.object({ pendingApprovals: z.array(PendingApproval) });

/** Where a task stands, in plain values (no SDK types): what `ask`, `tasks get` and `approvals` print. */
export interface TaskOutcome {
  taskId: string;
  contextId: string;
  state: TaskStateName;
  /** The text of the latest status message: progress, the approval request or why it failed. */
  statusText: string;
  /** The text of the artifact named `answer`, once there is one. */
  answer: string | undefined;
  pendingApprovals: PendingApproval[];
}

/**
 * The approvals a status message asks for, from its `{ pendingApprovals }` data part. Throws
 * `CliError` `BAD_REPLY` when that part does not have the documented shape.
 */
export function pendingApprovalsOf(message: Message | undefined): PendingApproval[] {
  const found: PendingApproval[] = [];
  for (const part of message?.parts ?? []) {
    if (part.content?.$case !== 'data') continue;
    const value: unknown = part.content.value;
    if (!value || typeof value !== 'object' || !('pendingApprovals' in value)) continue;
    const parsed = PendingApprovals.safeParse(value);
    if (!parsed.success) {
      throw new CliError('BAD_REPLY', {
        message: `The supervisor sent pending approvals in an unexpected shape: ${parsed.error.issues
          .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
          .join('; ')}`,
      });
    }
    found.push(...parsed.data.pendingApprovals);
  }
  return found;
}

/** Where a task fetched with GetTask (or returned by SendMessage) stands. */
export function outcomeOfTask(task: Task): TaskOutcome {
  const state = stateName(task.status?.state);
  return {
    taskId: task.id,
    contextId: task.contextId,
    state,
    statusText: textOf(task.status?.message),
    answer: answerOf(task.artifacts),
    pendingApprovals: WAITING_STATES.has(state) ? pendingApprovalsOf(task.status?.message) : [],
  };
}
