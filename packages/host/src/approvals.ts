// Approvals: the board a task's approval requests wait on, and the owner resolver that lets the admin
// routes act in a task owner's scope. The admin API's wire shapes are @switchboard/protocol's.
export { actingForOwner } from './approvals/acting-for.ts';
export type {
  ApprovalBoard,
  BoardDecision,
  DecideResult,
  TaskApprovals,
  TaskWithdrawal,
} from './approvals/approval-board.ts';
export { MemoryApprovalBoard } from './approvals/approval-board.ts';
export type {
  AdminErrorCode,
  DecideApprovalOptions,
  DecisionOutcome,
  DecisionPath,
} from './approvals/decide-approval.ts';
export {
  ADMIN_ERRORS,
  decideApproval,
  readApprovalTask,
  withdrawnMessage,
} from './approvals/decide-approval.ts';
export type { OperatorRoutes, OperatorSide } from './operator-routes.ts';
export type { OwnedTask, RecentTasksOptions, TaskDirectory } from './tasks/task-directory.ts';
export type { PositionedEvent, TaskEventFeed } from './tasks/task-event-log.ts';
