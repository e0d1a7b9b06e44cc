import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@a2a-js/sdk/client';
import { FINISHED_STATES, outcomeOfTask, type TaskOutcome, WAITING_STATES } from './task-outcome.ts';

/** Options of {@link waitForTask}. */
export interface WaitForTaskOptions {
  client: Client;
  taskId: string;
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
 * Polls GetTask until a task that was resumed by a decision has settled again: finished, or
 * waiting for something other than the decided approval (a new approval). `timedOut` is true
 * when it had not settled in time.
 */
export async function waitForTask({
  client,
  taskId,
  decidedApprovalId,
  timeoutMs,
  intervalMs = 200,
}: WaitForTaskOptions): Promise<{ outcome: TaskOutcome; timedOut: boolean }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const outcome = outcomeOfTask(await client.getTask({ tenant: '', id: taskId, historyLength: 0 }));
    const movedOn =
      FINISHED_STATES.has(outcome.state) ||
      (WAITING_STATES.has(outcome.state) &&
        !outcome.pendingApprovals.some((approval) => approval.id === decidedApprovalId));
    if (movedOn) return { outcome, timedOut: false };
    if (Date.now() + intervalMs > deadline) return { outcome, timedOut: true };
    await sleep(intervalMs);
  }
}
