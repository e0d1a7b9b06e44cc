// @switchboard/a2a/delivery is deprecated: the delivery policy of queued messages moved to their own packages
// (docs/migration.md lists every name's new home). These re-exports go in the next release.
export type { DeduplicateMessagesOptions, FollowTaskEventsOptions } from '@switchboard/host';
export { deduplicateMessages, followTaskEvents } from '@switchboard/host';
