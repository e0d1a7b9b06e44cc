export type {
  ContextWindowOptions,
  PrepareContextOptions,
  PreparedContext,
  RecallHook,
} from './context/context-window.ts';
// context
export { ContextWindow } from './context/context-window.ts';
export type { HistoryCheckOptions, HistoryProblem, HistoryProblemKind } from './context/history-check.ts';
export { assertValidHistory, findHistoryProblems } from './context/history-check.ts';
export { RECALL_HEADING, SUMMARY_HEADING } from './context/memory-messages.ts';
export type { SummarizeHook } from './context/rolling-summary.ts';
export type { TokenEstimator } from './context/token-estimate.ts';
export {
  estimateMessageTokens,
  estimatePromptTokens,
  estimateTextTokens,
} from './context/token-estimate.ts';
export type { ToolFailureRecord } from './context/tool-failures.ts';
export { findToolFailures } from './context/tool-failures.ts';
export type { TrimHistoryOptions, TrimResult } from './context/trim-history.ts';
export { trimHistory } from './context/trim-history.ts';
export type { SplitHistory } from './context/turns.ts';
export { splitTurns } from './context/turns.ts';
export type { TaskStatus } from './deprecated.ts';
export { createTaskState, TaskState } from './deprecated.ts';
export type { AgentErrorCode, ErrorParty } from './errors.ts';
export { AGENT_ERRORS, AgentError, isAgentError } from './errors.ts';
export type { Agent, AgentOptions } from './loop/agent.ts';
export { defineAgent } from './loop/agent.ts';
export type { CostMeterOptions } from './loop/cost-meter.ts';
export { CostMeter } from './loop/cost-meter.ts';
export type { AgentEvent, StepRecord, StopReason } from './loop/events.ts';
export { assertNever } from './loop/events.ts';
export type { AgentRunResult, RunAgentOptions } from './loop/run-agent.ts';
export { runAgent } from './loop/run-agent.ts';
export type { AgentStream } from './loop/stream-agent.ts';
export { streamAgent } from './loop/stream-agent.ts';
export type {
  ChatModel,
  ChatModelCapabilities,
  ChatRequest,
  ChatResponse,
  ChatStreamEvent,
} from './model/chat-model.ts';
export { streamFromResponse } from './model/chat-model.ts';
export type { JsonSchema } from './model/messages.ts';
export {
  AssistantMessage,
  addUsage,
  ChatMessage,
  emptyUsage,
  FinishReason,
  ResponseFormat,
  SystemMessage,
  TokenUsage,
  ToolCall,
  ToolChoice,
  ToolDeclaration,
  ToolEffects,
  ToolMessage,
  UserMessage,
} from './model/messages.ts';
export type {
  ApprovalAuditRecord,
  ApprovalMismatchAuditRecord,
  AuditRecord,
  AuditSink,
  AuditStatus,
  ToolCallAuditRecord,
} from './observe/audit.ts';
export { MemoryAuditSink } from './observe/audit.ts';
export type { Logger } from './observe/logger.ts';
export { silentLogger, stderrLogger } from './observe/logger.ts';
export type { RedactOptions } from './observe/redact.ts';
export { maskContacts, REDACTED, redactText, redactValue, summarize } from './observe/redact.ts';
export {
  AgentCost,
  addFigures,
  COST_FIGURES,
  CostFigures,
  costOf,
  emptyFigures,
  MAX_COST_AGENTS,
  MAX_COST_HOPS,
  MAX_COST_MS,
  MAX_COST_TOKENS,
  mergeCosts,
  OTHER_AGENTS,
  RequestCost,
} from './observe/request-cost.ts';
export type {
  AgentSpan,
  AgentSpanOperation,
  AgentSpanSpec,
  AgentTracer,
  SpanAttributes,
  SpanAttributeValue,
} from './observe/tracer.ts';
export { noopTracer } from './observe/tracer.ts';
export type { ApprovalQuota, ApprovalText, Approver } from './policy/approvals.ts';
export {
  ApprovalDecision,
  ApprovalRequest,
  approvalId,
  createApprovalRequest,
  decisionFor,
} from './policy/approvals.ts';
export { argumentsHash, canonicalJson } from './policy/arguments-hash.ts';
export type { Credentials } from './policy/credentials.ts';
export { CredentialVault } from './policy/credentials.ts';
export { LEGACY_USER_KIND } from './policy/legacy-kind.ts';
export {
  describePrincipal,
  legacyPrincipalKey,
  Principal,
  PrincipalKind,
  principalKey,
} from './policy/principal.ts';
export type { ToolRisk } from './policy/tool-risk.ts';
export { calibratedSimilarity, cosine, type Embedder } from './routing/embedder.ts';
export type { RecallMode, ToolRouterOptions, ToolRule } from './routing/router-options.ts';
export { ROUTER_DEFAULTS } from './routing/router-options.ts';
export type {
  CandidateSource,
  RouteCandidate,
  RoutingDecision,
  RoutingOutcome,
} from './routing/routing-decision.ts';
export type { RouteRequest } from './routing/tool-router.ts';
export { ToolRouter } from './routing/tool-router.ts';
export type { AgentStatus } from './state/agent-state.ts';
export { AgentState, createAgentState, ToolLogEntry } from './state/agent-state.ts';
export type {
  IntentBegin,
  IntentFinish,
  IntentRecord,
  IntentStart,
  IntentStatus,
  IntentStore,
} from './state/intents.ts';
export { MemoryIntentStore } from './state/intents.ts';
export type {
  GenerateObjectOptions,
  GenerateObjectResult,
  StructuredMode,
} from './structured/generate-object.ts';
export { generateObject } from './structured/generate-object.ts';
export { toStrictSchema } from './structured/strict-schema.ts';
export type { DelegatedApproval } from './tools/approval-wait.ts';
export { ApprovalWait } from './tools/approval-wait.ts';
export { formatArgumentIssues } from './tools/argument-errors.ts';
export type { AnyTool, Tool, ToolContext, ToolOptions } from './tools/define-tool.ts';
export { defineTool } from './tools/define-tool.ts';
export type { ToolRunnerOptions } from './tools/runner/tool-runner.ts';
export { ToolRunner } from './tools/runner/tool-runner.ts';
export type { ToolCallOutcome, ToolCallRecord } from './tools/tool-call-record.ts';
export { DESCRIPTION_LABELS, declareTool, describeTool, toModelSchema } from './tools/tool-declaration.ts';
export type { ToolErrorCode, ToolFailure, ToolResultEnvelope } from './tools/tool-result.ts';
export { parseToolResult, TOOL_ERROR_CODES, toolError, toolOk } from './tools/tool-result.ts';
export { Toolset } from './tools/toolset.ts';
export type { UserText } from './tools/user-text.ts';
export { isUserText, USER_TEXT_NOTE, userText } from './tools/user-text.ts';
