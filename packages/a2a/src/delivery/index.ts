// The delivery policy of queued messages (a message delivered twice runs once), and task event
// streams that any replica serves.
export type { DeduplicateMessagesOptions } from './deduplicate-messages.ts';
export { deduplicateMessages } from './deduplicate-messages.ts';
export type { FollowTaskEventsOptions } from './follow-task-events.ts';
export { followTaskEvents } from './follow-task-events.ts';
