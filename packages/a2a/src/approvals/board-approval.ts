import type { ApprovalRequest } from '@switchboard/agent';
import { z } from 'zod';

/** Where an approval on the board stands. `withdrawn`: the task moved on without a decision. */
export const BoardStatus = z.enum(['pending', 'approved', 'denied', 'withdrawn']);
export type BoardStatus = z.infer<typeof BoardStatus>;

/**
 * One approval as operators see it on the board: what waits, on which task, and once decided, who
 * decided what and when. The shape of the admin API (`GET /admin/approvals`).
 */
export const BoardApproval = z.object({
  id: z.string(),
  status: BoardStatus,
  /** The agent that wants to act (the delegate's name when a worker asked). */
  agent: z.string(),
  tool: z.string(),
  action: z.string(),
  text: z.string(),
  reversible: z.boolean(),
  repeatable: z.boolean(),
  requestedAt: z.string(),
  /** The task on this service that waits for the decision. */
  taskId: z.string(),
  contextId: z.string(),
  /** Whose task it is (the task store's owner scope) and its tenant, so the decision reaches it. */
  owner: z.string(),
  tenant: z.string(),
  decidedBy: z.string().optional(),
  decidedAt: z.string().optional(),
  reason: z.string().optional(),
});
export type BoardApproval = z.infer<typeof BoardApproval>;

/** The board entry of a pending request of a task. */
export function boardEntry(
  request: ApprovalRequest,
  task: { taskId: string; contextId: string; owner: string; tenant: string },
): BoardApproval {
  return {
    id: request.id,
    status: 'pending',
    agent: request.agent,
    tool: request.tool,
    action: request.action,
    text: request.text,
    reversible: request.reversible,
    repeatable: request.repeatable,
    requestedAt: request.requestedAt,
    ...task,
  };
}
