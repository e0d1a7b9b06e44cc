// @switchboard/a2a/redis is deprecated: the Redis stores and connection moved to their own packages
// (docs/migration.md lists every name's new home). These re-exports go in the next release.

export type {
  PositionedEvent,
  RedisApprovalBoardOptions,
  RedisEventBusManagerOptions,
  RedisRunStateStoreOptions,
  RedisTaskEventLogOptions,
  RedisTaskLedgerOptions,
  RedisTaskStoreOptions,
  TaskRetention,
} from '@switchboard/host/redis';
export {
  RedisApprovalBoard,
  RedisEventBusManager,
  RedisIntentStore,
  RedisRunStateStore,
  RedisTaskEventLog,
  RedisTaskLedger,
  RedisTaskStore,
} from '@switchboard/host/redis';
export type { RedisReplayGuardOptions } from '@switchboard/identity';
export { RedisReplayGuard } from '@switchboard/identity';
export type { RedisConnection, RedisConnectionOptions } from '@switchboard/redis';
export { createRedisConnection, parseClusterNodes, redactUrl, scanKeys } from '@switchboard/redis';
