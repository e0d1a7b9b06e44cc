// @switchboard/a2a is deprecated: hosting, identity and the protocol's vocabulary moved to their own packages
// (docs/migration.md lists every name's new home). These re-exports go in the next release.
/** @deprecated Import it from the package named below; docs/migration.md has the table. */

/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated See `A2aError`. */
export type {
  AgentExecutorOptions,
  AgentHost,
  BuildAgentCardOptions,
  CardInterface,
  HostAgentOptions,
  HostAuth,
  HostErrorCode,
  HostErrorCode as A2aErrorCode,
  HostedAgent,
  HostedAgentOptions,
  HostLimits,
  HostStores,
  LedgerEntry,
  LimitCounters,
  LimitName,
  LimitRequestsOptions,
  RedisLimitCountersOptions,
  RequestLimits,
  RunState,
  RunStateStore,
  StartableTaskLedger,
  TaskLedger,
  WindowCount,
} from '@switchboard/host';
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/**
 * @deprecated Each package has its own error class now (`HostError`, `IdentityError`, `DelegateError`,
 * `ShadowError`, `RedisConnectionError`); this alias of `HostError` goes in the next release.
 */
export {
  buildAgentCard,
  concealInternalErrors,
  createHostedAgent,
  DEFAULT_REQUEST_LIMITS,
  HOST_ERRORS,
  HOST_ERRORS as A2A_ERRORS,
  HostError,
  HostError as A2aError,
  hostAgent,
  InternalServerError,
  LAST_EVENT_ID,
  LAST_EVENT_ID_QUERY,
  limitRequests,
  MemoryLimitCounters,
  messageContentBytes,
  RedisLimitCounters,
  SwitchboardAgentExecutor,
  TOO_MANY_REQUESTS_REASON,
  TooManyRequestsError,
} from '@switchboard/host';
export type {
  AssertionClaims,
  AssertionUse,
  Authenticator,
  PresentedCredentials,
  ReplayGuard,
  ServiceAssertionAuthenticatorOptions,
  ServiceKeySet,
  ServiceSigner,
  ServiceSignerOptions,
  TrustedKeys,
  TrustedKeysOptions,
  TrustedKeysSource,
} from '@switchboard/identity';
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
export {
  bearerToken,
  CallerId,
  firstOf,
  generateServiceKey,
  JWT_ALGORITHMS,
  JwtAuthenticatorOptions,
  jwtAuthenticator,
  MAX_ASSERTION_LIFETIME_MS,
  MemoryReplayGuard,
  openIdConfigurationUrl,
  ownKeyProblem,
  PrincipalUser,
  principalOf,
  publicKeyOf,
  RESERVED_IDS,
  readServiceKey,
  readServiceKeySet,
  readTrustedKeysSource,
  requestDigest,
  SERVICE_ASSERTION_TYPE,
  SERVICE_KEY_ALGORITHM,
  ServicePrivateKey,
  ServicePublicKey,
  StaticTokens,
  serviceAssertionAuthenticator,
  serviceOfKeyId,
  serviceSigner,
  staticTokenAuthenticator,
  staticTokenProblems,
  trustedKeys,
} from '@switchboard/identity';
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
export type { SkillSpec } from '@switchboard/protocol';
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
/** @deprecated Import it from the package named below; docs/migration.md has the table. */
export {
  APPROVAL_DECISION_KEY,
  CALLER_CONVERSATION_KEY,
  DELEGATED_SKILL_KEY,
  EVENT_POSITION_KEY,
  PROGRESS_KEY,
  sendMessageRequest,
  TRANSIENT_KEY,
  textPart,
  userMessage,
} from '@switchboard/protocol';
