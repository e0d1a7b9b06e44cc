// Who is calling: authenticators (static tokens, an identity provider's JWTs, service assertions), the
// principal a caller becomes, service keys, the signer of on-behalf-of assertions, trusted keys and the
// replay guard (in memory and in Redis).
export type { Authenticator, PresentedCredentials } from './authenticator.ts';
export { bearerToken, firstOf } from './authenticator.ts';
export {
  JWT_ALGORITHMS,
  JwtAuthenticatorOptions,
  jwtAuthenticator,
  openIdConfigurationUrl,
} from './jwt-authenticator.ts';
export { PrincipalUser, principalOf } from './principal-user.ts';
export type { QueueAuthenticatorOptions, QueuedCredentials } from './queue-authenticator.ts';
export { queueAuthenticator } from './queue-authenticator.ts';
export type { RedisReplayGuardOptions } from './redis-replay-guard.ts';
export { RedisReplayGuard } from './redis-replay-guard.ts';
export type { AssertionUse, ReplayGuard } from './replay-guard.ts';
export { MemoryReplayGuard } from './replay-guard.ts';
export type { ServiceAssertionAuthenticatorOptions } from './service-assertions.ts';
export { serviceAssertionAuthenticator } from './service-assertions.ts';
export type { ServiceKeySet } from './service-keys.ts';
export {
  generateServiceKey,
  ownKeyProblem,
  publicKeyOf,
  readServiceKey,
  readServiceKeySet,
  SERVICE_KEY_ALGORITHM,
  ServicePrivateKey,
  ServicePublicKey,
  serviceOfKeyId,
} from './service-keys.ts';
export type { AssertionClaims, ServiceSigner, ServiceSignerOptions } from './service-signer.ts';
export {
  MAX_ASSERTION_LIFETIME_MS,
  requestDigest,
  SERVICE_ASSERTION_TYPE,
  serviceSigner,
} from './service-signer.ts';
export {
  CallerId,
  hasStaticTokens,
  RESERVED_IDS,
  StaticTokens,
  staticTokenAuthenticator,
  staticTokenProblems,
} from './static-tokens.ts';
export type { TrustedKeys, TrustedKeysOptions, TrustedKeysSource } from './trusted-keys.ts';
export { readTrustedKeysSource, trustedKeys } from './trusted-keys.ts';
