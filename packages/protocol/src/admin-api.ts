import { z } from 'zod';
import { BoardApproval } from './board-approval.ts';

/** `GET /admin/approvals?status=…` → 200: the board's approvals, oldest first. */
export const ApprovalList = z.object({ approvals: z.array(BoardApproval) });
export type ApprovalList = z.infer<typeof ApprovalList>;

/** `GET /admin/approvals/{id}` → 200: one approval, every argument of its call included. */
export const ApprovalReply = z.object({ approval: BoardApproval });
export type ApprovalReply = z.infer<typeof ApprovalReply>;

/** `POST /admin/approvals/{id}/approve|deny` → 202: the decided approval and the task it resumes. */
export const DecisionReply = z.object({ approval: BoardApproval, taskId: z.string().min(1) });
export type DecisionReply = z.infer<typeof DecisionReply>;

/** Every error of the admin API: `{ error: { code, message } }` (codes in `ADMIN_ERRORS`). */
export const AdminErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
export type AdminErrorBody = z.infer<typeof AdminErrorBody>;
