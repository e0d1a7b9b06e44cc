// The shapes of the operators' admin API (/admin/approvals): one approval as the board shows it, and
// each route's reply. A client of the API (the CLI) reads them; the host's admin routes write them.
import { ApprovalRequest } from '@switchboard/agent';
import { z } from 'zod';

/**
 * Where an approval on the board stands. `withdrawn`: the task moved on without a decision, or was
 * canceled (then `withdrawnBy` and `withdrawnAt` say who canceled it and when).
 */
export const BoardStatus = z.enum(['pending', 'approved', 'denied', 'withdrawn']);
export type BoardStatus = z.infer<typeof BoardStatus>;

/**
 * One approval as operators see it on the board: what waits, on which task, and once decided, who
 * decided what and when. The shape of the admin API (`GET /admin/approvals`).
 */
export const BoardApproval = ApprovalRequest.pick({
  id: true,
  /** The agent that wants to act (the delegate's name when a worker asked). */
  agent: true,
  tool: true,
  action: true,
  /** What the one line cannot hold (an email's body, or its first lines), as the tool wrote it. */
  details: true,
  /** Every validated argument of the call, secrets redacted: exactly what runs when approved. */
  arguments: true,
  text: true,
  reversible: true,
  repeatable: true,
  requestedAt: true,
}).extend({
  status: BoardStatus,
  /** The hash of those arguments (see `argumentsHash`); an approval runs the call only with them. */
  argumentsHash: z.string(),
  /** The task on this service that waits for the decision. */
  taskId: z.string(),
  contextId: z.string(),
  /** Whose task it is (the task store's owner scope) and its tenant, so the decision reaches it. */
  owner: z.string(),
  tenant: z.string(),
  /**
   * The principal key (`user:u-1024`) of whom the task acts for: who asked for the action. They
   * cannot approve it themselves.
   */
  requestedBy: z.string().optional(),
  decidedBy: z.string().optional(),
  decidedAt: z.string().optional(),
  reason: z.string().optional(),
  /** Who canceled the task, so the approval was withdrawn (a principal key, `user:u-1024`). */
  withdrawnBy: z.string().optional(),
  withdrawnAt: z.string().optional(),
});
export type BoardApproval = z.infer<typeof BoardApproval>;

/** The board entry of a pending request of a task. */
export function boardEntry(
  request: ApprovalRequest,
  {
    requestedBy,
    ...task
  }: { taskId: string; contextId: string; owner: string; tenant: string; requestedBy?: string | undefined },
): BoardApproval {
  return {
    id: request.id,
    status: 'pending',
    agent: request.agent,
    tool: request.tool,
    action: request.action,
    ...(request.details === undefined ? {} : { details: request.details }),
    arguments: request.arguments,
    argumentsHash: request.argumentsHash,
    text: request.text,
    reversible: request.reversible,
    repeatable: request.repeatable,
    requestedAt: request.requestedAt,
    ...task,
    ...(requestedBy ? { requestedBy } : {}),
  };
}

/**
 * `GET /admin/approvals?status=…&limit=…&cursor=…` → 200: a page of the board's approvals, oldest
 * first; `nextCursor`, when there is more, is the `cursor` of the next page.
 */
export const ApprovalList = z.object({
  approvals: z.array(BoardApproval),
  nextCursor: z.string().optional(),
});
export type ApprovalList = z.infer<typeof ApprovalList>;

/** `GET /admin/approvals/{id}` → 200: one approval, every argument of its call included. */
export const ApprovalReply = z.object({ approval: BoardApproval });
export type ApprovalReply = z.infer<typeof ApprovalReply>;

/** `POST /admin/approvals/{id}/approve|deny` → 202: the decided approval and the task it resumes. */
export const DecisionReply = z.object({ approval: BoardApproval, taskId: z.string().min(1) });
export type DecisionReply = z.infer<typeof DecisionReply>;

/**
 * `GET /admin/approvals/{id}/task` → 200: the approval and, as ProtoJSON (`Task.toJSON`), the task
 * that waits for it, read in its owner's scope: what an operator follows after deciding.
 */
export const ApprovalTaskReply = z.object({
  approval: BoardApproval,
  task: z.record(z.string(), z.unknown()),
});
export type ApprovalTaskReply = z.infer<typeof ApprovalTaskReply>;

/** Every error of the admin API: `{ error: { code, message } }` (codes in `ADMIN_ERRORS`). */
export const AdminErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
export type AdminErrorBody = z.infer<typeof AdminErrorBody>;
