export { ACTING_FOR, actingForOwner } from './approvals/acting-for.js';
export { AdminErrorBody, ApprovalList, DecisionReply } from './approvals/admin-api.js';
export type {
  ApprovalBoard,
  BoardDecision,
  DecideResult,
  TaskApprovals,
} from './approvals/approval-board.js';
export { MemoryApprovalBoard } from './approvals/approval-board.js';
export { BoardApproval, BoardStatus } from './approvals/board-approval.js';
export type { RedisApprovalBoardOptions } from './approvals/redis-approval-board.js';
export { RedisApprovalBoard } from './approvals/redis-approval-board.js';
export { AuthenticatedUser, BearerAuthOptions, bearerUser, tokenVerifier } from './auth/bearer-tokens.js';
export type { PeerCard } from './card/accept-peer-card.js';
export { acceptPeerCard, acceptPeerCards } from './card/accept-peer-card.js';
export type { BuildAgentCardOptions, CardInterface } from './card/build-card.js';
export { buildAgentCard } from './card/build-card.js';
export type { CardChange, CardChangeKind, CardDiff } from './card/card-change.js';
export type { CardVersion, CardWarning, ConvertedCard, JsonObject } from './card/card-json.js';
export { detectCardVersion } from './card/card-json.js';
export type { CardCheck, CardProblem, CardRule } from './card/card-problem.js';
export { CARD_RULES } from './card/card-problem.js';
export type { CheckCardOptions } from './card/check-card.js';
export { checkCard } from './card/check-card.js';
export { diffCards } from './card/diff-cards.js';
export { fromV03 } from './card/from-v03.js';
export {
  PERMISSIONS_EXTENSION_URI,
  PermissionManifest,
  PermissionManifestTool,
  permissionsExtension,
} from './card/permissions-extension.js';
export type { PublishedCardVersion } from './card/render-card.js';
export { CARD_VERSIONS, renderAgentCard } from './card/render-card.js';
export type { SkillSpec } from './card/skill-spec.js';
export { toV03 } from './card/to-v03.js';
export type { CardVerification, VerifyCardOptions, VerifyCheck } from './card/verify-card.js';
export { verifyCard } from './card/verify-card.js';
export type { DelegateOutcome } from './delegate/delegation-result.js';
export type { DelegationToolsOptions } from './delegate/delegation-tools.js';
export { DELEGATED_SKILL_KEY, delegationToolName, delegationTools } from './delegate/delegation-tools.js';
export type { A2aErrorCode } from './errors.js';
export { A2A_ERRORS, A2aError } from './errors.js';
export type { AgentExecutorOptions, TaskStartedHook } from './executor/agent-executor.js';
export {
  APPROVAL_DECISION_KEY,
  CALLER_CONVERSATION_KEY,
  SwitchboardAgentExecutor,
  TASK_STARTED_HOOK,
} from './executor/agent-executor.js';
export type { TaskAborter } from './executor/cancel-listener.js';
export { listenForCancels } from './executor/cancel-listener.js';
export {
  agentMessage,
  dataPart,
  readMessage,
  sendMessageRequest,
  textPart,
  userMessage,
} from './executor/messages.js';
export type { RunStateStore } from './executor/run-state-store.js';
export { MemoryRunStateStore, RunState } from './executor/run-state-store.js';
export type { HostedAgent, HostedAgentOptions } from './host/hosted-agent.js';
export { createHostedAgent } from './host/hosted-agent.js';
export type { AdminApprovalsOptions, AdminErrorCode } from './http/admin-approvals.js';
export { ADMIN_ERRORS, adminApprovalsRouter } from './http/admin-approvals.js';
export type { AgentCardRouteOptions } from './http/agent-card-route.js';
export { AGENT_CARD_MAX_AGE, agentCardRoute } from './http/agent-card-route.js';
export type { A2aHttpAppOptions } from './http/create-app.js';
export { createA2aHttpApp } from './http/create-app.js';
export type { ReadinessCheck } from './http/health-routes.js';
export { A2A_HTTP_PATHS, a2aHttpInterfaces } from './http/paths.js';
export type { HttpBinding, HttpProblem } from './http/problems.js';
export { HTTP_PROBLEMS } from './http/problems.js';
export type { A2aHttpServer, StartA2aHttpServerOptions } from './http/start-server.js';
export { startA2aHttpServer } from './http/start-server.js';
export type { A2aMethod, MessagingOperation } from './observe/a2a-semconv.js';
export {
  A2A_ATTR,
  A2A_TRACER_NAME,
  ERROR_TYPE,
  ERROR_TYPES,
  GEN_AI_ATTR,
  MESSAGING_ATTR,
  MESSAGING_SYSTEM,
  messagingSpanName,
} from './observe/a2a-semconv.js';
export type { TracedRequestHandlerOptions } from './observe/traced-request-handler.js';
export { tracedRequestHandler } from './observe/traced-request-handler.js';
export type { QueueAddress } from './queue/binding.js';
export { BULLMQ_BINDING, defaultQueueAddress, parseQueueUrl, queueUrl } from './queue/binding.js';
export type { ReplyFrame } from './queue/envelope.js';
export { decodeFrame, encodeFrame, JobEnvelope } from './queue/envelope.js';
export type { A2aQueueServerOptions } from './queue/queue-server.js';
export { A2aQueueServer } from './queue/queue-server.js';
export type { QueueTransportOptions } from './queue/queue-transport.js';
export { QueueTransport } from './queue/queue-transport.js';
export type { QueueTransportFactoryOptions } from './queue/queue-transport-factory.js';
export { QueueTransportFactory } from './queue/queue-transport-factory.js';
export type { ReplyInboxOptions } from './queue/reply-inbox.js';
export { ReplyInbox, ReplySubscription } from './queue/reply-inbox.js';
export { errorResponse, ReplyWriter } from './queue/reply-writer.js';
export type { AgentRegistryOptions, RegisterOptions, Registration } from './registry/agent-registry.js';
export { AgentRegistry } from './registry/agent-registry.js';
export type { RegistryClientOptions } from './registry/registry-client.js';
export { clientForAgent, clientFromRegistryEntry } from './registry/registry-client.js';
export type { RegistryEntry, RegistryInstance } from './registry/registry-entry.js';
export { RedisIntentStore } from './store/redis-intent-store.js';
export type { RedisRunStateStoreOptions } from './store/redis-run-state-store.js';
export { RedisRunStateStore } from './store/redis-run-state-store.js';
export type { RedisTaskStoreOptions, TaskRetention } from './store/redis-task-store.js';
export { RedisTaskStore } from './store/redis-task-store.js';
export type { LedgerEntry, RedisTaskLedgerOptions, TaskLedger } from './store/task-ledger.js';
export { RedisTaskLedger } from './store/task-ledger.js';
export { TERMINAL_TASK_STATES, taskCanceledChannel } from './store/task-store-keys.js';
