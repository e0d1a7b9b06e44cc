// Approvals: the board a task's approval requests wait on, the wire shapes of the operators' admin
// API (what a client of /admin/approvals reads), and the owner resolver that lets the admin routes
// act in a task owner's scope.
export { actingForOwner } from './acting-for.ts';
export { AdminErrorBody, ApprovalList, ApprovalReply, DecisionReply } from './admin-api.ts';
export type {
  ApprovalBoard,
  BoardDecision,
  DecideResult,
  TaskApprovals,
} from './approval-board.ts';
export { MemoryApprovalBoard } from './approval-board.ts';
export { BoardApproval, BoardStatus } from './board-approval.ts';
