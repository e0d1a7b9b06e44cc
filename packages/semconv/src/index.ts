export type { A2aMethod } from './a2a.ts';
export { A2A, a2aSpanName } from './a2a.ts';
export type { GenAiOperation } from './gen-ai.ts';
export { GEN_AI, genAiSpanName } from './gen-ai.ts';
export { COMMON, ERROR_TYPE_OTHER, PROCESS, RESOURCE } from './general.ts';
export type { MessagingOperation } from './messaging.ts';
export { MESSAGING, MESSAGING_OPERATION, MESSAGING_SYSTEM, messagingSpanName } from './messaging.ts';
export { cliSpanName, SWITCHBOARD } from './switchboard.ts';
