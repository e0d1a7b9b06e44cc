// @switchboard/a2a/approvals is deprecated: approvals moved to their own packages
// (docs/migration.md lists every name's new home). These re-exports go in the next release.
/** @deprecated Import it from the package named below; docs/migration.md has the table. */

/** @deprecated Import it from the package named below; docs/migration.md has the table. */
export type {
  ApprovalBoard,
  BoardDecision,
  DecideResult,
  TaskApprovals,
} from '@switchboard/host/approvals';
export { actingForOwner, MemoryApprovalBoard } from '@switchboard/host/approvals';
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
export {
  AdminErrorBody,
  ApprovalList,
  ApprovalReply,
  BoardApproval,
  BoardStatus,
  DecisionReply,
} from '@switchboard/protocol';
