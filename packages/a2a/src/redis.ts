// @switchboard/a2a/redis is deprecated: the Redis stores and connection moved to their own packages
// (docs/migration.md lists every name's new home). These re-exports go in the next release.
/** @deprecated Import it from the package named below; docs/migration.md has the table. */

/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
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
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
export {
  RedisApprovalBoard,
  RedisEventBusManager,
  RedisIntentStore,
  RedisRunStateStore,
  RedisTaskEventLog,
  RedisTaskLedger,
  RedisTaskStore,
} from '@switchboard/host/redis';
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
export type { RedisReplayGuardOptions } from '@switchboard/identity';
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
export { RedisReplayGuard } from '@switchboard/identity';
export type { RedisConnection, RedisConnectionOptions } from '@switchboard/redis';
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
export { createRedisConnection, parseClusterNodes, redactUrl, scanKeys } from '@switchboard/redis';
