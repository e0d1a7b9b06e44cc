import { Task, TaskState } from '@a2a-js/sdk';
import { type A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { type Logger, type Principal, principalKey, stderrLogger } from '@switchboard/agent';
import type { Authenticator } from '@switchboard/identity';
import { PrincipalUser } from '@switchboard/identity';
import type {
  AdminErrorBody,
  ApprovalList,
  ApprovalReply,
  ApprovalTaskReply,
  BoardApproval,
  DecisionReply,
} from '@switchboard/protocol';
import {
  APPROVAL_DECISION_KEY,
  markDecidedOnBoard,
  sendMessageRequest,
  setCallVariable,
  userMessage,
} from '@switchboard/protocol';
import express, { type Response, type Router } from 'express';
import { z } from 'zod';
import { HostError } from '../errors.ts';
import { ACTING_FOR } from './acting-for.ts';
import { type ApprovalBoard, DEFAULT_PAGE_SIZE, decodeCursor, MAX_PAGE_SIZE } from './approval-board.ts';

/** The codes of the admin API's error bodies `{ error: { code, message } }`. */
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

/** Options of {@link adminApprovalsRouter}. */
export interface AdminApprovalsOptions {
  board: ApprovalBoard;
  /** The hosted agent whose tasks the board lists; decisions are delivered to them through it. */
  requestHandler: A2ARequestHandler;
  /**
   * Who is calling; only principals of kind `operator` may use the API, and the operator's id is
   * what the decision records.
   */
  authenticate: Authenticator;
  logger?: Logger;
}

const DecisionBody = z.object({ reason: z.string().trim().min(1).max(500).optional() }).strict();
const StatusFilter = z.enum(['pending', 'decided', 'all']);
const PageLimit = z
  .string()
  .regex(/^\d{1,4}$/)
  .transform(Number)
  .pipe(z.number().int().min(1).max(MAX_PAGE_SIZE));

function fail(res: Response, code: AdminErrorCode, message: string): void {
  res.status(ADMIN_ERRORS[code]).json({ error: { code, message } } satisfies AdminErrorBody);
}

/**
 * The operators' API, mounted under `/admin` next to the A2A routes:
 * - `GET /approvals?status=pending|decided|all&limit=&cursor=` lists the board (default pending),
 *   oldest first, a page at a time (`limit` default 100, at most 500; `nextCursor` names the next);
 * - `GET /approvals/:id` shows one approval (every entry carries its call's arguments, their
 *   hash, and whom it was requested by);
 * - `GET /approvals/:id/task` shows it with the task that waits for it (read in the task owner's
 *   scope), so an operator can follow the task they decide without the owner's token;
 * - `POST /approvals/:id/approve` and `/deny` (body `{ reason? }`) decide it once (409 when it is
 *   decided already; 403 when operators approve what they asked for themselves) and deliver the
 *   decision, bound to the arguments the board shows (`argumentsHash`), to the waiting task, which
 *   resumes; answers 202 with the approval and the task id to follow.
 * Every route needs an operator's bearer credential; the operator's id is what the audit records.
 * This is where approvals are decided: a task takes a decision only from here (or from a peer
 * service handing on one taken here), never from a message an operator or user sends.
 *
 * @example
 * const authenticate = staticTokenAuthenticator({ operators: { [token]: 'ada' } });
 * app.use('/admin', adminApprovalsRouter({ board, requestHandler, authenticate }));
 */
export function adminApprovalsRouter({
  board,
  requestHandler,
  authenticate,
  logger = stderrLogger(),
}: AdminApprovalsOptions): Router {
  if (!board || typeof requestHandler?.sendMessage !== 'function' || typeof authenticate !== 'function') {
    throw new HostError('INVALID_OPTIONS', {
      message: 'adminApprovalsRouter needs a board, a request handler and an authenticator of operators.',
    });
  }
  const router = express.Router();
  router.use((req, res, next) => {
    Promise.resolve(authenticate({ authorization: req.header('authorization') })).then((principal) => {
      if (principal?.kind !== 'operator') {
        if (principal)
          logger.warn({ caller: principal.id, kind: principal.kind }, 'admin API refused a non-operator');
        res.setHeader('WWW-Authenticate', 'Bearer realm="admin"');
        fail(
          res,
          'UNAUTHORIZED',
          principal
            ? 'The admin API is for operators; this credential is not an operator’s.'
            : 'The admin API needs an operator token: send "Authorization: Bearer <token>".',
        );
        return;
      }
      res.locals.operator = principal;
      next();
    }, next);
  });
  router.use(express.json({ limit: '16kb' }));

  router.get('/approvals', async (req, res, next) => {
    const status = StatusFilter.safeParse(req.query.status ?? 'pending');
    if (!status.success) {
      fail(res, 'INVALID_REQUEST', 'status must be pending, decided or all.');
      return;
    }
    const limit = PageLimit.safeParse(req.query.limit ?? String(DEFAULT_PAGE_SIZE));
    if (!limit.success) {
      fail(res, 'INVALID_REQUEST', `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}, e.g. limit=50.`);
      return;
    }
    const cursor = req.query.cursor;
    if (cursor !== undefined && (typeof cursor !== 'string' || !decodeCursor(cursor))) {
      fail(
        res,
        'INVALID_REQUEST',
        'cursor is not one this board gave: pass the nextCursor of the previous page, or leave it out to start from the oldest.',
      );
      return;
    }
    try {
      const page = await board.page({ status: status.data, limit: limit.data, cursor });
      res.json(page satisfies ApprovalList);
    } catch (error) {
      next(error);
    }
  });

  router.get('/approvals/:id', async (req, res, next) => {
    try {
      const approval = await board.get(req.params.id);
      if (!approval) fail(res, 'APPROVAL_NOT_FOUND', `There is no approval ${req.params.id}.`);
      else res.json({ approval } satisfies ApprovalReply);
    } catch (error) {
      next(error);
    }
  });

  router.get('/approvals/:id/task', async (req, res, next) => {
    try {
      const approval = await board.get(req.params.id);
      if (!approval) {
        fail(res, 'APPROVAL_NOT_FOUND', `There is no approval ${req.params.id}.`);
        return;
      }
      let task: Task;
      try {
        task = await requestHandler.getTask(
          { tenant: approval.tenant, id: approval.taskId, historyLength: 0 },
          ownersContext(approval, res.locals.operator as Principal),
        );
      } catch (error) {
        logger.warn(
          { err: error, approvalId: approval.id, taskId: approval.taskId },
          'task of approval unreadable',
        );
        fail(
          res,
          'TASK_UNREACHABLE',
          `Task ${approval.taskId} of approval ${approval.id} could not be read.`,
        );
        return;
      }
      res.json({ approval, task: Task.toJSON(task) as Record<string, unknown> } satisfies ApprovalTaskReply);
    } catch (error) {
      next(error);
    }
  });

  for (const [verb, decision] of [
    ['approve', 'approved'],
    ['deny', 'denied'],
  ] as const) {
    router.post(`/approvals/:id/${verb}`, async (req, res, next) => {
      const body = DecisionBody.safeParse(req.body ?? {});
      if (!body.success) {
        fail(res, 'INVALID_REQUEST', `Invalid body: ${body.error.issues.map((i) => i.message).join('; ')}.`);
        return;
      }
      const operator = res.locals.operator as Principal;
      try {
        const result = await board.decide({
          id: req.params.id,
          decision,
          decidedBy: operator.id,
          deciderKey: principalKey(operator),
          ...(body.data.reason ? { reason: body.data.reason } : {}),
        });
        if (!result.ok && result.reason === 'not_found') {
          fail(
            res,
            'APPROVAL_NOT_FOUND',
            `There is no approval ${req.params.id}. List the pending ones with GET /admin/approvals (switchboard approvals list).`,
          );
          return;
        }
        if (!result.ok && result.reason === 'own_request') {
          logger.warn(
            { approvalId: req.params.id, operator: operator.id },
            'admin API refused an operator approving their own request',
          );
          fail(
            res,
            'OWN_REQUEST',
            `Approval ${req.params.id} was requested by you (${principalKey(operator)}); another operator must approve it.`,
          );
          return;
        }
        if (!result.ok && result.reason === 'withdrawn') {
          fail(res, 'APPROVAL_WITHDRAWN', withdrawnMessage(result.approval));
          return;
        }
        if (!result.ok) {
          const { approval } = result;
          const by = approval.decidedBy ? ` by ${approval.decidedBy} at ${approval.decidedAt}` : '';
          fail(
            res,
            'APPROVAL_ALREADY_DECIDED',
            `Approval ${approval.id} is already ${approval.status}${by}.`,
          );
          return;
        }
        try {
          await deliver(requestHandler, result.approval, operator);
        } catch (error) {
          // A task that has ended takes no decision, now or later: its approval is withdrawn, not
          // offered again (a board entry kept from before cancels withdrew them).
          const ended = await endedState(requestHandler, result.approval, operator);
          if (ended) {
            // Back to pending, then withdrawn with the rest of the task's: never left decided.
            await board.reopen(result.approval.id);
            await board.withdrawTask({ taskId: result.approval.taskId });
            logger.warn(
              { approvalId: result.approval.id, taskId: result.approval.taskId, state: ended },
              'approval withdrawn: its task has ended',
            );
            fail(res, 'APPROVAL_WITHDRAWN', withdrawnMessage(result.approval, ended));
            return;
          }
          await board.reopen(result.approval.id);
          logger.error(
            { err: error, approvalId: result.approval.id },
            'decision could not be delivered to its task',
          );
          fail(
            res,
            'TASK_UNREACHABLE',
            `The decision could not be delivered to task ${result.approval.taskId}; the approval is pending again. Try again in a moment.`,
          );
          return;
        }
        logger.info(
          { approvalId: result.approval.id, decision, operator: operator.id, taskId: result.approval.taskId },
          'approval decided',
        );
        res
          .status(202)
          .json({ approval: result.approval, taskId: result.approval.taskId } satisfies DecisionReply);
      } catch (error) {
        next(error);
      }
    });
  }

  router.use(((error, _req, res, _next) => {
    if ((error as { type?: string }).type === 'entity.parse.failed') {
      fail(res, 'INVALID_REQUEST', 'The body is not valid JSON; send {"reason": "..."} or nothing.');
      return;
    }
    logger.error({ err: error }, 'admin request failed');
    res
      .status(500)
      .json({ error: { code: 'INTERNAL', message: 'The admin request failed; see the server log.' } });
  }) as express.ErrorRequestHandler);
  return router;
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
