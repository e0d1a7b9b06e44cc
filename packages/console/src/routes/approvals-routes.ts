import { ADMIN_ERRORS, decideApproval, readApprovalTask } from '@switchboard/host/approvals';
import type { BoardApproval } from '@switchboard/protocol';
import express, { type Router } from 'express';
import { z } from 'zod';
import { html } from '../html/html.ts';
import { streamSnapshots } from '../live-events.ts';
import { approvalDetail } from '../pages/approval-page.ts';
import { approvalsTable } from '../pages/approvals-page.ts';
import { notice } from '../pages/layout.ts';
import { hasEnded, snapshotOf } from '../pages/task-snapshot.ts';
import { base, type ConsoleSide, idOf, route, sendFramed, signed } from './console-context.ts';

/** How many decisions the history shows, the most recent first. */
const HISTORY = 500;

const Decision = z.object({
  csrf: z.string(),
  decision: z.enum(['approve', 'deny']),
  reason: z.string().trim().max(500).optional(),
});

/**
 * The approval pages: what waits (the start page), the decisions taken, one approval live, and the
 * decision, taken by `decideApproval` as the admin API takes it.
 */
export function approvalsRoutes(side: ConsoleSide): Router {
  const { board } = side;
  const router = express.Router();

  router.get(
    '/',
    route(async (req, res) => {
      const { approvals, nextCursor } = await board.page({ status: 'pending', limit: 100 });
      const more = nextCursor ? html`<p>More wait than shown: decide these first, oldest first.</p>` : '';
      const table = approvalsTable({ base: base(req), approvals, decided: false });
      sendFramed(req, res, 200, 'Waiting approvals', html`${table}${more}`);
    }),
  );

  router.get(
    '/history',
    route(async (req, res) => {
      // The board pages oldest first: read to its end, keep the most recent decisions.
      let recent: BoardApproval[] = [];
      let cursor: string | undefined;
      do {
        const page = await board.page({ status: 'decided', limit: HISTORY, cursor });
        recent = [...recent, ...page.approvals].slice(-HISTORY);
        cursor = page.nextCursor;
      } while (cursor);
      const table = approvalsTable({ base: base(req), approvals: recent.reverse(), decided: true });
      sendFramed(req, res, 200, 'Decisions', table);
    }),
  );

  router.get(
    '/approvals/:id',
    route(async (req, res) => {
      const approval = await board.get(idOf(req));
      if (!approval) {
        sendFramed(
          req,
          res,
          404,
          'No such approval',
          html`${notice('problem', `There is no approval ${idOf(req)}.`)}`,
        );
        return;
      }
      const { operator, csrf } = signed(res);
      const task = await readApprovalTask({ ...side, approval, operator, historyLength: 50 });
      const done = req.query.done === 'approved' || req.query.done === 'denied' ? req.query.done : undefined;
      const body = html`${done ? notice('ok', `You ${done} it; the task resumes.`) : ''}${approvalDetail({ base: base(req), approval, task, csrf })}`;
      sendFramed(req, res, 200, approval.action, body);
    }),
  );

  router.get(
    '/approvals/:id/events',
    route(async (req, res) => {
      const { operator } = signed(res);
      await streamSnapshots(req, res, {
        read: async () => {
          const approval = await board.get(idOf(req));
          if (!approval) return undefined;
          const snapshot = snapshotOf(
            approval,
            await readApprovalTask({ ...side, approval, operator, historyLength: 50 }),
          );
          return {
            snapshot,
            done: approval.status !== 'pending' && (!snapshot.task || hasEnded(snapshot.task.state)),
          };
        },
      });
    }),
  );

  router.post(
    '/approvals/:id/decide',
    route(async (req, res) => {
      const id = idOf(req);
      const form = Decision.safeParse(req.body);
      if (!form.success) {
        const problem =
          'The form was not complete: choose Approve or Deny (a reason is at most 500 characters).';
        sendFramed(req, res, 400, 'Not decided', html`${notice('problem', problem)}`);
        return;
      }
      const { operator, csrf } = signed(res);
      const decision = form.data.decision === 'approve' ? 'approved' : 'denied';
      const outcome = await decideApproval({
        ...side,
        id,
        decision,
        operator,
        reason: form.data.reason || undefined,
      });
      if (outcome.ok) {
        res.redirect(303, `${base(req)}/approvals/${encodeURIComponent(id)}?done=${decision}`);
        return;
      }
      const approval = await board.get(id);
      const task = approval ? await readApprovalTask({ ...side, approval, operator }) : undefined;
      const detail = approval ? approvalDetail({ base: base(req), approval, task, csrf }) : '';
      sendFramed(
        req,
        res,
        ADMIN_ERRORS[outcome.code],
        approval?.action ?? 'Not decided',
        html`${notice('problem', outcome.message)}${detail}`,
      );
    }),
  );
  return router;
}
