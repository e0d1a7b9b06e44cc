// Hosting an agent as an A2A server: hostAgent (the one composition), createHostedAgent and the
// executor under it with its ports, the card it publishes, who calls, the errors, and the protocol's
// vocabulary a caller needs. The parts a user picks separately have their own entry points: /http,
// /redis, /registry, /delegate, /delivery, /approvals and /observe.
export type { Authenticator, PresentedCredentials } from './auth/authenticator.ts';
export { bearerToken, firstOf } from './auth/authenticator.ts';
export {
  JWT_ALGORITHMS,
  JwtAuthenticatorOptions,
  jwtAuthenticator,
  openIdConfigurationUrl,
} from './auth/jwt-authenticator.ts';
export { PrincipalUser, principalOf } from './auth/principal-user.ts';
export type { AssertionUse, ReplayGuard } from './auth/replay-guard.ts';
export { MemoryReplayGuard } from './auth/replay-guard.ts';
export type { ServiceAssertionAuthenticatorOptions } from './auth/service-assertions.ts';
export { serviceAssertionAuthenticator } from './auth/service-assertions.ts';
export type { ServiceKeySet } from './auth/service-keys.ts';
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
} from './auth/service-keys.ts';
export type { AssertionClaims, ServiceSigner, ServiceSignerOptions } from './auth/service-signer.ts';
export {
  MAX_ASSERTION_LIFETIME_MS,
  requestDigest,
  SERVICE_ASSERTION_TYPE,
  serviceSigner,
} from './auth/service-signer.ts';
export {
  CallerId,
  RESERVED_IDS,
  StaticTokens,
  staticTokenAuthenticator,
  staticTokenProblems,
} from './auth/static-tokens.ts';
export type { TrustedKeys, TrustedKeysOptions, TrustedKeysSource } from './auth/trusted-keys.ts';
export { readTrustedKeysSource, trustedKeys } from './auth/trusted-keys.ts';
export type { BuildAgentCardOptions, CardInterface } from './card/build-card.ts';
export { buildAgentCard } from './card/build-card.ts';
export type { SkillSpec } from './card/skill-spec.ts';
export type { A2aErrorCode } from './errors.ts';
export { A2A_ERRORS, A2aError } from './errors.ts';
export type { AgentExecutorOptions } from './executor/agent-executor.ts';
export { SwitchboardAgentExecutor } from './executor/agent-executor.ts';
export type { RunState, RunStateStore } from './executor/run-state-store.ts';
export type { LedgerEntry, StartableTaskLedger, TaskLedger } from './executor/task-ledger.ts';
export type {
  AgentHost,
  HostAgentOptions,
  HostAuth,
  HostStores,
} from './host/host-agent.ts';
export { hostAgent } from './host/host-agent.ts';
export type { HostedAgent, HostedAgentOptions } from './host/hosted-agent.ts';
export { createHostedAgent } from './host/hosted-agent.ts';
export type { LimitCounters, WindowCount } from './limits/limit-counters.ts';
export { MemoryLimitCounters } from './limits/limit-counters.ts';
export type { LimitName } from './limits/limit-errors.ts';
export { TOO_MANY_REQUESTS_REASON, TooManyRequestsError } from './limits/limit-errors.ts';
export type { LimitRequestsOptions } from './limits/limit-requests.ts';
export { limitRequests } from './limits/limit-requests.ts';
export { messageContentBytes } from './limits/message-size.ts';
export type { RedisLimitCountersOptions } from './limits/redis-limit-counters.ts';
export { RedisLimitCounters } from './limits/redis-limit-counters.ts';
export type { HostLimits, RequestLimits } from './limits/request-limits.ts';
export { DEFAULT_REQUEST_LIMITS } from './limits/request-limits.ts';
export { concealInternalErrors, InternalServerError } from './observe/conceal-errors.ts';
export { LAST_EVENT_ID, LAST_EVENT_ID_QUERY } from './protocol/event-position.ts';
export { sendMessageRequest, textPart, userMessage } from './protocol/messages.ts';
export {
  APPROVAL_DECISION_KEY,
  CALLER_CONVERSATION_KEY,
  DELEGATED_SKILL_KEY,
  EVENT_POSITION_KEY,
  PROGRESS_KEY,
  TRANSIENT_KEY,
} from './protocol/metadata-keys.ts';
