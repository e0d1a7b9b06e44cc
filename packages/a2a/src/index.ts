export { ACTING_FOR, actingForOwner } from './approvals/acting-for.ts';
export { AdminErrorBody, ApprovalList, DecisionReply } from './approvals/admin-api.ts';
export type {
  ApprovalBoard,
  BoardDecision,
  DecideResult,
  TaskApprovals,
} from './approvals/approval-board.ts';
export { MemoryApprovalBoard } from './approvals/approval-board.ts';
export { BoardApproval, BoardStatus } from './approvals/board-approval.ts';
export {
  AuthenticatedUser,
  BearerAuthOptions,
  bearerAuthenticator,
  bearerUser,
  tokenVerifier,
} from './auth/bearer-tokens.ts';
export { SERVICE_USER } from './auth/service-user.ts';
export type { PeerCard } from './card/accept-peer-card.ts';
export { acceptPeerCard, acceptPeerCards } from './card/accept-peer-card.ts';
export type { BuildAgentCardOptions, CardInterface } from './card/build-card.ts';
export { buildAgentCard } from './card/build-card.ts';
export {
  PERMISSIONS_EXTENSION_URI,
  PermissionManifest,
  PermissionManifestTool,
  permissionsExtension,
} from './card/permissions-extension.ts';
export type { SkillSpec } from './card/skill-spec.ts';
export type { DelegateOutcome } from './delegate/delegation-result.ts';
export type { DelegationToolsOptions } from './delegate/delegation-tools.ts';
export { delegationToolName, delegationTools } from './delegate/delegation-tools.ts';
export type { DeduplicateMessagesOptions } from './delivery/deduplicate-messages.ts';
export { deduplicateMessages } from './delivery/deduplicate-messages.ts';
export type { A2aErrorCode } from './errors.ts';
export { A2A_ERRORS, A2aError } from './errors.ts';
export type { AgentExecutorOptions } from './executor/agent-executor.ts';
export { SwitchboardAgentExecutor } from './executor/agent-executor.ts';
export type { RunStateStore } from './executor/run-state-store.ts';
export { MemoryRunStateStore, RunState } from './executor/run-state-store.ts';
export type { LedgerEntry, StartableTaskLedger, TaskLedger } from './executor/task-ledger.ts';
export type {
  AgentHost,
  HostAgentOptions,
  HostStores,
  HostTokens,
} from './host/host-agent.ts';
export { hostAgent } from './host/host-agent.ts';
export type { HostedAgent, HostedAgentOptions } from './host/hosted-agent.ts';
export { createHostedAgent } from './host/hosted-agent.ts';
export type { AdminApprovalsOptions, AdminErrorCode } from './http/admin-approvals.ts';
export { ADMIN_ERRORS, adminApprovalsRouter } from './http/admin-approvals.ts';
export type { AgentCardRouteOptions } from './http/agent-card-route.ts';
export { AGENT_CARD_MAX_AGE, agentCardRoute } from './http/agent-card-route.ts';
export type { A2aHttpAppOptions } from './http/create-app.ts';
export { createA2aHttpApp } from './http/create-app.ts';
export type { ReadinessCheck } from './http/health-routes.ts';
export { A2A_HTTP_PATHS, a2aHttpInterfaces } from './http/paths.ts';
export type { HttpBinding, HttpProblem } from './http/problems.ts';
export { HTTP_PROBLEMS } from './http/problems.ts';
export type { A2aHttpServer, StartA2aHttpServerOptions } from './http/start-server.ts';
export { startA2aHttpServer } from './http/start-server.ts';
export type { TracedRequestHandlerOptions } from './observe/traced-request-handler.ts';
export { tracedRequestHandler } from './observe/traced-request-handler.ts';
export type { TracedTransportFactoryOptions } from './observe/traced-transport.ts';
export { tracedTransportFactory } from './observe/traced-transport.ts';
export { A2A_TRACER_NAME } from './observe/tracer-name.ts';
export {
  agentMessage,
  dataPart,
  readMessage,
  sendMessageRequest,
  textPart,
  userMessage,
} from './protocol/messages.ts';
export {
  APPROVAL_DECISION_KEY,
  CALLER_CONVERSATION_KEY,
  DELEGATED_SKILL_KEY,
} from './protocol/metadata-keys.ts';
export { TERMINAL_TASK_STATES } from './protocol/task-states.ts';
export type { TaskAborter } from './redis/cancel-listener.ts';
export { listenForCancels } from './redis/cancel-listener.ts';
export type { RedisApprovalBoardOptions } from './redis/redis-approval-board.ts';
export { RedisApprovalBoard } from './redis/redis-approval-board.ts';
export { RedisIntentStore } from './redis/redis-intent-store.ts';
export type { RedisRunStateStoreOptions } from './redis/redis-run-state-store.ts';
export { RedisRunStateStore } from './redis/redis-run-state-store.ts';
export type { RedisTaskLedgerOptions } from './redis/redis-task-ledger.ts';
export { RedisTaskLedger } from './redis/redis-task-ledger.ts';
export type { RedisTaskStoreOptions, TaskRetention } from './redis/redis-task-store.ts';
export { RedisTaskStore } from './redis/redis-task-store.ts';
export { taskCanceledChannel } from './redis/task-store-keys.ts';
export type { AgentRegistryOptions, RegisterOptions, Registration } from './registry/agent-registry.ts';
export { AgentRegistry } from './registry/agent-registry.ts';
export type { RegistryClientOptions } from './registry/registry-client.ts';
export { clientForAgent, clientFromRegistryEntry } from './registry/registry-client.ts';
export type { RegistryEntry, RegistryInstance } from './registry/registry-entry.ts';
