// @switchboard/a2a/approvals is deprecated: approvals moved to their own packages
// (docs/migration.md lists every name's new home). These re-exports go in the next release.

export type {
  ApprovalBoard,
  BoardDecision,
  DecideResult,
  TaskApprovals,
} from '@switchboard/host/approvals';
export { actingForOwner, MemoryApprovalBoard } from '@switchboard/host/approvals';
export {
  AdminErrorBody,
  ApprovalList,
  ApprovalReply,
  BoardApproval,
  BoardStatus,
  DecisionReply,
} from '@switchboard/protocol';
