import { type Task, TaskState } from '@a2a-js/sdk';
import type { A2ARequestHandler } from '@a2a-js/sdk/server';
import { type Logger, principalKey } from '@switchboard/agent';
import { principalOf } from '@switchboard/identity';
import type { ApprovalBoard } from '../../approvals/approval-board.ts';
import { decorateHandler } from '../decorate-handler.ts';

/** Options of {@link withdrawApprovalsOnCancel}. */
export interface WithdrawOnCancelOptions {
  handler: A2ARequestHandler;
  board: ApprovalBoard;
  logger: Logger;
}

/**
 * Withdraws a task's pending approvals when the task is canceled, recording who canceled it and
 * when, so the board no longer offers a decision its task can never take (an operator deciding it
 * is told the task was canceled, not that the task could not be reached).
 */
export function withdrawApprovalsOnCancel({
  handler,
  board,
  logger,
}: WithdrawOnCancelOptions): A2ARequestHandler {
  return decorateHandler(handler, {
    async unary(method, _params, call, run) {
      const result = await run();
      if (method !== 'cancelTask') return result;
      const task = result as Task;
      if (task.status?.state !== TaskState.TASK_STATE_CANCELED) return result;
      const principal = principalOf(call.user);
      const withdrawnBy = principal ? principalKey(principal) : 'anonymous';
      try {
        const withdrawn = await board.withdrawTask({ taskId: task.id, withdrawnBy });
        if (withdrawn.length > 0)
          logger.info(
            { taskId: task.id, approvals: withdrawn, withdrawnBy },
            'approvals withdrawn: task canceled',
          );
      } catch (error) {
        logger.error({ err: error, taskId: task.id }, 'approvals of a canceled task could not be withdrawn');
      }
      return result;
    },
  });
}
