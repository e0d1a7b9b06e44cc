import type { ApprovalRequest } from '../policy/approvals.ts';

/** An approval another agent asked for, as a handler hands it on; the runner adds the call's ids. */
export type DelegatedApproval = Omit<ApprovalRequest, 'conversationId' | 'toolCallId'> & {
  delegate: NonNullable<ApprovalRequest['delegate']>;
};

/** What a handler returns to stop the run until a human decides (see `ToolContext.waitForApproval`). */
export class ApprovalWait {
  readonly request: DelegatedApproval;

  constructor(request: DelegatedApproval) {
    this.request = request;
  }
}
