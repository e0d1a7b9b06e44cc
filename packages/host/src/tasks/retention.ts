/**
 * How long the Redis stores keep what they hold after its last change, unless told otherwise: 7
 * days (tasks, conversations, intents, approvals). A service sets it with `SWITCHBOARD_RETENTION_DAYS`.
 */
export const DEFAULT_RETENTION_SECONDS = 7 * 24 * 60 * 60;
