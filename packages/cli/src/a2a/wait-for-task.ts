import { setTimeout as sleep } from 'node:timers/promises';
import type { Task } from '@a2a-js/sdk';
import { FINISHED_STATES, outcomeOfTask, type TaskOutcome, WAITING_STATES } from './task-outcome.ts';

/** Options of {@link waitForTask}. */
export interface WaitForTaskOptions {
  /** Reads the task as it is now (the admin API's `GET /admin/approvals/{id}/task`, or GetTask). */
  readTask: () => Promise<Task>;
  /**
   * The approval just decided: until the task has moved past it (it no longer waits on it), the
   * task is still where it was before the decision arrived.
   */
  decidedApprovalId: string;
  /** Give up after this long (the outcome then says where the task stood). */
  timeoutMs: number;
  /** How often to ask (default 200 ms). */
  intervalMs?: number;
}

/**
 * Polls a task that was resumed by a decision has settled again: finished, or
 * waiting for something other than the decided approval (a new approval). `timedOut` is true
 * when it had not settled in time.
 */
export async function waitForTask({
  readTask,
  decidedApprovalId,
  timeoutMs,
  intervalMs = 200,
}: WaitForTaskOptions): Promise<{ outcome: TaskOutcome; timedOut: boolean }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const outcome = outcomeOfTask(await readTask());
    const movedOn =
      FINISHED_STATES.has(outcome.state) ||
      (WAITING_STATES.has(outcome.state) &&
        !outcome.pendingApprovals.some((approval) => approval.id === decidedApprovalId));
    if (movedOn) return { outcome, timedOut: false };
    if (Date.now() + intervalMs > deadline) return { outcome, timedOut: true };
    await sleep(intervalMs);
  }
}
