import { z } from 'zod';

/** Where an approval stands on the supervisor's board (`withdrawn`: the task moved on without it). */
export const ApprovalStatus = z.enum(['pending', 'approved', 'denied', 'withdrawn']);
export type ApprovalStatus = z.infer<typeof ApprovalStatus>;

/** One approval as the admin API lists it (`GET /admin/approvals`). Extra fields are kept. */
export const Approval = z.looseObject({
  id: z.string().min(1),
  status: ApprovalStatus,
  agent: z.string(),
  tool: z.string(),
  action: z.string(),
  text: z.string(),
  reversible: z.boolean(),
  repeatable: z.boolean(),
  requestedAt: z.string(),
  /** The task that waits for the decision, and its conversation. */
  taskId: z.string(),
  contextId: z.string(),
  decidedBy: z.string().optional(),
  decidedAt: z.string().optional(),
  reason: z.string().optional(),
});
export type Approval = z.infer<typeof Approval>;

/** `GET /admin/approvals?status=…` → 200. */
export const ApprovalList = z.object({ approvals: z.array(Approval) });
export type ApprovalList = z.infer<typeof ApprovalList>;

/** `POST /admin/approvals/{id}/approve|deny` → 202: the decided approval and the task it resumes. */
export const DecisionReply = z.object({ approval: Approval, taskId: z.string().min(1) });
export type DecisionReply = z.infer<typeof DecisionReply>;

/** Every admin API error: 400 `INVALID_REQUEST`, 401 `UNAUTHORIZED`, 404 `APPROVAL_NOT_FOUND`, 409 `APPROVAL_ALREADY_DECIDED`. */
export const AdminErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
export type AdminErrorBody = z.infer<typeof AdminErrorBody>;
