// Names of 0.2 kept for one release, each read as the name that replaced it (docs/migration.md).

/**
 * The 0.2 name of the static-token list of end users, `StaticTokens.users`: still read, joined to
 * `users`, for one release.
 */
export const LEGACY_USER_TOKENS = 'customers';

/**
 * The 0.2 name of `JwtAuthenticatorOptions.userClaim` (the claim that holds the caller's id): still
 * read for one release, when `userClaim` is not given.
 */
export const LEGACY_USER_CLAIM = 'customerClaim';
