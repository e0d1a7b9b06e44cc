// Every Redis implementation of hosting's stores, each beside the port it implements: tasks and their
// event streams, run state, intents, the task ledger, the approval board, the cost book and the limit counters.
export type { RedisApprovalBoardOptions } from './approvals/redis-approval-board.ts';
export { RedisApprovalBoard } from './approvals/redis-approval-board.ts';
export type { RedisCostBookOptions } from './costs/redis-cost-book.ts';
export { RedisCostBook } from './costs/redis-cost-book.ts';
export { RedisIntentStore } from './runs/redis-intent-store.ts';
export type { RedisRunStateStoreOptions } from './runs/redis-run-state-store.ts';
export { RedisRunStateStore } from './runs/redis-run-state-store.ts';
export type { RedisTaskLedgerOptions } from './runs/redis-task-ledger.ts';
export { RedisTaskLedger } from './runs/redis-task-ledger.ts';
export type { RedisEventBusManagerOptions } from './tasks/redis-event-bus-manager.ts';
export { RedisEventBusManager } from './tasks/redis-event-bus-manager.ts';
export type { RedisTaskStoreOptions, TaskRetention } from './tasks/redis-task-store.ts';
export { RedisTaskStore } from './tasks/redis-task-store.ts';
export { RedisTaskDirectory } from './tasks/task-directory.ts';
export type { PositionedEvent, RedisTaskEventLogOptions } from './tasks/task-event-log.ts';
export { RedisTaskEventLog } from './tasks/task-event-log.ts';
