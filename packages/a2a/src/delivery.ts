// @switchboard/a2a/delivery is deprecated: the delivery policy of queued messages moved to their own packages
// (docs/migration.md lists every name's new home). These re-exports go in the next release.
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
export type { DeduplicateMessagesOptions, FollowTaskEventsOptions } from '@switchboard/host';
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
export { deduplicateMessages, followTaskEvents } from '@switchboard/host';
