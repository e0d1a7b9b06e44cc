import type { Task } from '@a2a-js/sdk';
import { Role, TaskState } from '@a2a-js/sdk';
import type { BoardApproval } from '@switchboard/protocol';
import { answerOf, readMessage } from '@switchboard/protocol';
import { shown } from '../html/html.ts';

/** A task state in the protocol's words: `input-required`, `completed`. */
export function stateName(state: TaskState | undefined): string {
  const name = state === undefined ? undefined : TaskState[state];
  return name
    ? name
        .replace(/^TASK_STATE_/, '')
        .toLowerCase()
        .replaceAll('_', '-')
    : 'unknown';
}

/**
 * What the page of an approval shows of it and its task, as the live view sends it: every text
 * already inert (`shown`), for the browser to set as text only.
 */
export interface PageSnapshot {
  /** An approval's status and, once decided, the line that says who decided what. */
  status?: BoardApproval['status'];
  decision?: string;
  /** The task's id and state, absent when it cannot be read. */
  task?: TaskView;
}

/** A task as a page shows it: its id, its state, and its conversation, every text inert. */
export interface TaskView {
  id: string;
  state: string;
  messages: { who: 'user' | 'agent'; text: string }[];
}

/** Whether a task in this state has ended (the live view stops following it). */
export const hasEnded = (state: string) => ['completed', 'failed', 'canceled', 'rejected'].includes(state);

/** The view of a task: its history, then its answer (the `answer` artifact, kept nowhere else). */
export function taskView(task: Task): TaskView {
  const answer = answerOf(task.artifacts);
  return {
    id: shown(task.id),
    state: stateName(task.status?.state),
    messages: [
      ...task.history.flatMap((message) => {
        const { text } = readMessage(message);
        const who = message.role === Role.ROLE_USER ? ('user' as const) : ('agent' as const);
        return text ? [{ who, text: shown(text, { lines: true }) }] : [];
      }),
      ...(answer ? [{ who: 'agent' as const, text: shown(answer, { lines: true }) }] : []),
    ],
  };
}

/** The line that says how an approval was decided (or withdrawn); undefined while it waits. */
export function decisionLine(approval: BoardApproval): string | undefined {
  if (approval.status === 'pending') return undefined;
  const by = approval.decidedBy ? ` by ${approval.decidedBy} at ${approval.decidedAt ?? '?'}` : '';
  const canceled = approval.withdrawnBy ? ` (its task was canceled by ${approval.withdrawnBy})` : '';
  const why = approval.reason ? `: “${approval.reason}”` : '';
  return `This approval is ${approval.status}${by}${canceled}${why}.`;
}

/** The snapshot of an approval and the task that waits for it. */
export function snapshotOf(approval: BoardApproval, task: Task | undefined): PageSnapshot {
  const decision = decisionLine(approval);
  return {
    status: approval.status,
    ...(decision ? { decision: shown(decision) } : {}),
    ...(task ? { task: taskView(task) } : {}),
  };
}
