import { z } from 'zod';
import { ApprovalRequest } from '../policy/approvals.ts';

/** One tool call as the task state keeps it: what was asked and where its intent stands. */
export const ToolLogEntry = z.object({
  callId: z.string(),
  tool: z.string(),
  step: z.number().int().nonnegative(),
  /** Redacted, truncated. */
  argumentsSummary: z.string(),
  intent: z.enum(['in_progress', 'succeeded', 'failed', 'unknown']),
  errorCode: z.string().optional(),
  idempotencyKey: z.string().optional(),
  startedAt: z.string(),
  finishedAt: z.string().optional(),
});
export type ToolLogEntry = z.infer<typeof ToolLogEntry>;

/**
 * The explicit state of one task, kept by code (never by the model) and serialisable as JSON, so
 * any process can resume it. `confirmed` slots are arguments of calls that succeeded; `pending`
 * slots are arguments of calls that wait for an approval.
 */
export const AgentState = z.object({
  version: z.literal(1),
  agent: z.string(),
  conversationId: z.string(),
  status: z.preprocess(
    // Run state stored before 0.2 spelled it `cancelled`; it reads as the one spelling there is now.
    (status) => (status === 'cancelled' ? 'canceled' : status),
    z.enum(['working', 'completed', 'input_required', 'failed', 'canceled']),
  ),
  step: z.number().int().nonnegative(),
  slots: z.object({
    confirmed: z.record(z.string(), z.unknown()),
    pending: z.record(z.string(), z.unknown()),
  }),
  toolLog: z.array(ToolLogEntry),
  pendingApprovals: z.array(ApprovalRequest),
});
export type AgentState = z.infer<typeof AgentState>;
export type AgentStatus = AgentState['status'];

/** A fresh task state. */
export function createAgentState({
  agent,
  conversationId,
}: {
  agent: string;
  conversationId: string;
}): AgentState {
  return {
    version: 1,
    agent,
    conversationId,
    status: 'working',
    step: 0,
    slots: { confirmed: {}, pending: {} },
    toolLog: [],
    pendingApprovals: [],
  };
}
