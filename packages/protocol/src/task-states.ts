import { TaskState } from '@a2a-js/sdk';

/** Task states after which nothing more happens to a task (A2A v1.0, `a2a.proto`). */
export const TERMINAL_TASK_STATES: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);
