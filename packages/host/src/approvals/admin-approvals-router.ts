import { Task } from '@a2a-js/sdk';
import type { A2ARequestHandler } from '@a2a-js/sdk/server';
import { type Logger, type Principal, stderrLogger } from '@switchboard/agent';
import type { Authenticator } from '@switchboard/identity';
import type {
  AdminErrorBody,
  ApprovalList,
  ApprovalReply,
  ApprovalTaskReply,
  DecisionReply,
} from '@switchboard/protocol';
import express, { type Response, type Router } from 'express';
import { z } from 'zod';
import { HostError } from '../errors.ts';
import { type ApprovalBoard, DEFAULT_PAGE_SIZE, decodeCursor, MAX_PAGE_SIZE } from './approval-board.ts';
import { ADMIN_ERRORS, type AdminErrorCode, decideApproval, readApprovalTask } from './decide-approval.ts';

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
      const task = await readApprovalTask({
        requestHandler,
        logger,
        approval,
        operator: res.locals.operator as Principal,
      });
      if (!task) {
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
      try {
        const outcome = await decideApproval({
          board,
          requestHandler,
          logger,
          id: req.params.id,
          decision,
          operator: res.locals.operator as Principal,
          reason: body.data.reason,
        });
        if (!outcome.ok) fail(res, outcome.code, outcome.message);
        else
          res
            .status(202)
            .json({ approval: outcome.approval, taskId: outcome.approval.taskId } satisfies DecisionReply);
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
