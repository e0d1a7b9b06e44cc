// The one decision path of the approval board: the admin API and the operator console both decide
// through it, so a decision taken in either is the same decision.
import { type Task, TaskState } from '@a2a-js/sdk';
import { type A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { type Logger, type Principal, principalKey } from '@switchboard/agent';
import { PrincipalUser } from '@switchboard/identity';
import type { BoardApproval } from '@switchboard/protocol';
import {
  APPROVAL_DECISION_KEY,
  markDecidedOnBoard,
  sendMessageRequest,
  setCallVariable,
  userMessage,
} from '@switchboard/protocol';
import { ACTING_FOR } from './acting-for.ts';
import type { ApprovalBoard } from './approval-board.ts';

/** The codes of the admin API's error bodies `{ error: { code, message } }`, with their HTTP status. */
export const ADMIN_ERRORS = {
  UNAUTHORIZED: 401,
  INVALID_REQUEST: 400,
  OWN_REQUEST: 403,
  APPROVAL_NOT_FOUND: 404,
  APPROVAL_ALREADY_DECIDED: 409,
  APPROVAL_WITHDRAWN: 409,
  TASK_UNREACHABLE: 502,
} as const;
export type AdminErrorCode = keyof typeof ADMIN_ERRORS;

/** Where an approval is decided: the board, and the hosted agent whose task waits for it. */
export interface DecisionPath {
  board: ApprovalBoard;
  /** The hosted agent whose tasks the board lists; decisions are delivered to them through it. */
  requestHandler: A2ARequestHandler;
  logger: Logger;
}

/** Options of {@link decideApproval}. */
export interface DecideApprovalOptions extends DecisionPath {
  id: string;
  decision: 'approved' | 'denied';
  /** The operator deciding (a principal of kind `operator`); their id is what the decision records. */
  operator: Principal;
  reason?: string | undefined;
}

/** The outcome of {@link decideApproval}: the decided approval, or why nothing was decided. */
export type DecisionOutcome =
  | { ok: true; approval: BoardApproval }
  | { ok: false; code: AdminErrorCode; message: string };

/**
 * Decides an approval once, as `operator`, and delivers the decision (bound to the arguments the
 * board shows) to the waiting task, which resumes. Refuses an approval by whom it was requested by,
 * a second decision, and a withdrawn approval; when the decision cannot be delivered the approval is
 * pending again (or withdrawn, when its task has ended). Messages are for the operator to read.
 */
export async function decideApproval({
  board,
  requestHandler,
  logger,
  id,
  decision,
  operator,
  reason,
}: DecideApprovalOptions): Promise<DecisionOutcome> {
  const result = await board.decide({
    id,
    decision,
    decidedBy: operator.id,
    deciderKey: principalKey(operator),
    ...(reason ? { reason } : {}),
  });
  if (!result.ok && result.reason === 'not_found') {
    return {
      ok: false,
      code: 'APPROVAL_NOT_FOUND',
      message: `There is no approval ${id}. List the pending ones with GET /admin/approvals (switchboard approvals list).`,
    };
  }
  if (!result.ok && result.reason === 'own_request') {
    logger.warn({ approvalId: id, operator: operator.id }, 'refused an operator approving their own request');
    return {
      ok: false,
      code: 'OWN_REQUEST',
      message: `Approval ${id} was requested by you (${principalKey(operator)}); another operator must approve it.`,
    };
  }
  if (!result.ok && result.reason === 'withdrawn')
    return { ok: false, code: 'APPROVAL_WITHDRAWN', message: withdrawnMessage(result.approval) };
  if (!result.ok) {
    const { approval } = result;
    const by = approval.decidedBy ? ` by ${approval.decidedBy} at ${approval.decidedAt}` : '';
    return {
      ok: false,
      code: 'APPROVAL_ALREADY_DECIDED',
      message: `Approval ${approval.id} is already ${approval.status}${by}.`,
    };
  }
  try {
    await deliver(requestHandler, result.approval, operator);
  } catch (error) {
    // A task that has ended takes no decision, now or later: its approval is withdrawn, not
    // offered again (a board entry kept from before cancels withdrew them).
    const ended = await endedState(requestHandler, result.approval, operator);
    await board.reopen(result.approval.id);
    if (ended) {
      // Back to pending, then withdrawn with the rest of the task's: never left decided.
      await board.withdrawTask({ taskId: result.approval.taskId });
      logger.warn(
        { approvalId: result.approval.id, taskId: result.approval.taskId, state: ended },
        'approval withdrawn: its task has ended',
      );
      return { ok: false, code: 'APPROVAL_WITHDRAWN', message: withdrawnMessage(result.approval, ended) };
    }
    logger.error(
      { err: error, approvalId: result.approval.id },
      'decision could not be delivered to its task',
    );
    return {
      ok: false,
      code: 'TASK_UNREACHABLE',
      message: `The decision could not be delivered to task ${result.approval.taskId}; the approval is pending again. Try again in a moment.`,
    };
  }
  logger.info(
    { approvalId: result.approval.id, decision, operator: operator.id, taskId: result.approval.taskId },
    'approval decided',
  );
  return { ok: true, approval: result.approval };
}

/**
 * The task that waits for an approval, read in its owner's scope as `operator` (with no history
 * when `historyLength` is 0), so an operator can follow what they decide without the owner's token.
 * Undefined when the task cannot be read (logged).
 */
export async function readApprovalTask({
  requestHandler,
  logger,
  approval,
  operator,
  historyLength = 0,
}: Omit<DecisionPath, 'board'> & {
  approval: BoardApproval;
  operator: Principal;
  historyLength?: number;
}): Promise<Task | undefined> {
  try {
    return await requestHandler.getTask(
      { tenant: approval.tenant, id: approval.taskId, historyLength },
      ownersContext(approval, operator),
    );
  } catch (error) {
    logger.warn(
      { err: error, approvalId: approval.id, taskId: approval.taskId },
      'task of approval unreadable',
    );
    return undefined;
  }
}

/** Why a withdrawn approval takes no decision: its task was canceled (by whom, when), or moved on. */
export function withdrawnMessage(approval: BoardApproval, ended?: string): string {
  const why = approval.withdrawnBy
    ? `its task ${approval.taskId} was canceled by ${approval.withdrawnBy} at ${approval.withdrawnAt}`
    : ended || approval.withdrawnAt
      ? `its task ${approval.taskId} has ended${ended ? ` (${ended})` : ''}`
      : `its task ${approval.taskId} no longer asks for it`;
  return `Approval ${approval.id} was withdrawn: ${why}, so there is nothing to decide.`;
}

const ENDED: Partial<Record<TaskState, string>> = {
  [TaskState.TASK_STATE_CANCELED]: 'canceled',
  [TaskState.TASK_STATE_COMPLETED]: 'completed',
  [TaskState.TASK_STATE_FAILED]: 'failed',
  [TaskState.TASK_STATE_REJECTED]: 'rejected',
};

/** How the approval's task ended (`canceled`, …), or undefined while it runs or cannot be read. */
async function endedState(
  handler: A2ARequestHandler,
  approval: BoardApproval,
  operator: Principal,
): Promise<string | undefined> {
  try {
    const task = await handler.getTask(
      { tenant: approval.tenant, id: approval.taskId, historyLength: 0 },
      ownersContext(approval, operator),
    );
    return task.status ? ENDED[task.status.state] : undefined;
  } catch {
    return undefined;
  }
}

/** A call context of the operator, acting in the scope of the task's owner (see `ACTING_FOR`). */
function ownersContext(approval: BoardApproval, operator: Principal): ServerCallContext {
  const context = new ServerCallContext({
    user: new PrincipalUser(operator),
    ...(approval.tenant ? { tenant: approval.tenant } : {}),
    requestedVersion: '1.0',
  });
  setCallVariable(context, ACTING_FOR, approval.owner);
  return context;
}

/**
 * Sends the decision into the waiting task, in its owner's scope, as the operator, marked as taken
 * on the board (only in-process code can), with the hash of the arguments the board showed.
 */
async function deliver(
  handler: A2ARequestHandler,
  approval: BoardApproval,
  operator: Principal,
): Promise<void> {
  const context = ownersContext(approval, operator);
  markDecidedOnBoard(context, operator);
  await handler.sendMessage(
    {
      ...sendMessageRequest({
        message: userMessage({
          taskId: approval.taskId,
          contextId: approval.contextId,
          data: {
            [APPROVAL_DECISION_KEY]: {
              approvalId: approval.id,
              decision: approval.status,
              argumentsHash: approval.argumentsHash,
              decidedBy: operator.id,
              ...(approval.reason ? { reason: approval.reason } : {}),
            },
          },
        }),
        returnImmediately: true,
      }),
      tenant: approval.tenant,
    },
    context,
  );
}
