import type { ApprovalRequest } from '../policy/approvals.js';

/** An approval another agent asked for, as a handler hands it on; the runner adds the call's ids. */
export type DelegatedApproval = Omit<ApprovalRequest, 'conversationId' | 'toolCallId'> & {
  delegate: NonNullable<ApprovalRequest['delegate']>;
};

/** What a handler returns to stop the run until a human decides (see `ToolContext.waitForApproval`). */
export class ApprovalWait {
  constructor(readonly request: DelegatedApproval) {}
}
