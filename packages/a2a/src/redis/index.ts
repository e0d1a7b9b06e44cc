// Every Redis implementation of hosting's stores: tasks, their event streams, run state, intents, the
// task ledger and the approval board, shared by all replicas of an agent.

// The connection itself is the BullMQ binding's (its one seam), offered here to the stores' users.
export type { RedisConnection, RedisConnectionOptions } from '@switchboard/a2a-bullmq';
export { createRedisConnection, parseClusterNodes, redactUrl, scanKeys } from '@switchboard/a2a-bullmq';
export type { RedisApprovalBoardOptions } from './redis-approval-board.ts';
export { RedisApprovalBoard } from './redis-approval-board.ts';
export type { RedisEventBusManagerOptions } from './redis-event-bus-manager.ts';
export { RedisEventBusManager } from './redis-event-bus-manager.ts';
export { RedisIntentStore } from './redis-intent-store.ts';
export type { RedisReplayGuardOptions } from './redis-replay-guard.ts';
export { RedisReplayGuard } from './redis-replay-guard.ts';
export type { RedisRunStateStoreOptions } from './redis-run-state-store.ts';
export { RedisRunStateStore } from './redis-run-state-store.ts';
export type { RedisTaskLedgerOptions } from './redis-task-ledger.ts';
export { RedisTaskLedger } from './redis-task-ledger.ts';
export type { RedisTaskStoreOptions, TaskRetention } from './redis-task-store.ts';
export { RedisTaskStore } from './redis-task-store.ts';
export type { PositionedEvent, RedisTaskEventLogOptions } from './task-event-log.ts';
export { RedisTaskEventLog } from './task-event-log.ts';
