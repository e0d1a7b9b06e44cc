// The delivery policy of queued messages: a message delivered twice runs once.
export type { DeduplicateMessagesOptions } from './deduplicate-messages.ts';
export { deduplicateMessages } from './deduplicate-messages.ts';
