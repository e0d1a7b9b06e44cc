/**
 * The word 0.2 and older wrote for the principal kind `user` (an end user): stored tasks, runs,
 * approvals, audit lines and service assertions of older peers carry it, and it reads as `user`.
 * Written nowhere; kept only so those records keep loading. Reading it goes in a later release.
 */
export const LEGACY_USER_KIND = 'customer';
