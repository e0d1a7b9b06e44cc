export type {
  ContextWindowOptions,
  PrepareContextOptions,
  PreparedContext,
  RecallHook,
} from './context/context-window.js';
// context
export { ContextWindow } from './context/context-window.js';
export type { HistoryCheckOptions, HistoryProblem, HistoryProblemKind } from './context/history-check.js';
export { assertValidHistory, findHistoryProblems } from './context/history-check.js';
export { RECALL_HEADING, SUMMARY_HEADING } from './context/memory-messages.js';
export type { SummarizeHook } from './context/rolling-summary.js';
export type { TokenEstimator } from './context/token-estimate.js';
export {
  estimateMessageTokens,
  estimatePromptTokens,
  estimateTextTokens,
} from './context/token-estimate.js';
export type { ToolFailureRecord } from './context/tool-failures.js';
export { findToolFailures } from './context/tool-failures.js';
export type { TrimHistoryOptions, TrimResult } from './context/trim-history.js';
export { trimHistory } from './context/trim-history.js';
export type { SplitHistory } from './context/turns.js';
export { splitTurns } from './context/turns.js';
export type { AgentErrorCode, ErrorParty } from './errors.js';
export { AGENT_ERRORS, AgentError, isAgentError } from './errors.js';
export type { Agent, AgentOptions } from './loop/agent.js';
export { defineAgent } from './loop/agent.js';
export type { AgentEvent, StepRecord, StopReason } from './loop/events.js';
export { assertNever } from './loop/events.js';
export type { AgentRunResult, RunAgentOptions } from './loop/run-agent.js';
export { runAgent } from './loop/run-agent.js';
export type { AgentStream } from './loop/stream-agent.js';
export { streamAgent } from './loop/stream-agent.js';
export type {
  ChatModel,
  ChatModelCapabilities,
  ChatRequest,
  ChatResponse,
  ChatStreamEvent,
} from './model/chat-model.js';
export { streamFromResponse } from './model/chat-model.js';
export type { JsonSchema } from './model/messages.js';
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
  ToolMessage,
  UserMessage,
} from './model/messages.js';
// offline model
export type { OfflineModelOptions } from './model/offline/offline-model.js';
export { OfflineModel } from './model/offline/offline-model.js';
// OpenAI-compatible adapter
export type { OpenAIChatModelOptions } from './model/openai-chat-model.js';
export { OpenAIChatModel } from './model/openai-chat-model.js';
export type {
  ApprovalAuditRecord,
  AuditRecord,
  AuditSink,
  AuditStatus,
  ToolCallAuditRecord,
} from './observe/audit.js';
export { MemoryAuditSink } from './observe/audit.js';
export type { Logger } from './observe/logger.js';
export { silentLogger, stderrLogger } from './observe/logger.js';
export type { RedactOptions } from './observe/redact.js';
export { maskContacts, REDACTED, redactText, redactValue, summarize } from './observe/redact.js';
export { GEN_AI, SWITCHBOARD, spanName } from './observe/semconv.js';
export type {
  AgentSpan,
  AgentSpanOperation,
  AgentSpanSpec,
  AgentTracer,
  SpanAttributes,
  SpanAttributeValue,
} from './observe/tracer.js';
export { noopTracer } from './observe/tracer.js';
export type { Approver } from './policy/approvals.js';
export { ApprovalDecision, ApprovalRequest, approvalId, createApprovalRequest } from './policy/approvals.js';
export { CredentialVault } from './policy/credentials.js';
export type { IntentBegin, IntentRecord, IntentStatus, IntentStore } from './state/intents.js';
export { MemoryIntentStore } from './state/intents.js';
export type { TaskStatus } from './state/task-state.js';
export { createTaskState, TaskState, ToolLogEntry } from './state/task-state.js';
export type {
  GenerateObjectOptions,
  GenerateObjectResult,
  StructuredMode,
} from './structured/generate-object.js';
export { generateObject } from './structured/generate-object.js';
export { toStrictSchema } from './structured/strict-schema.js';
export type { DelegatedApproval } from './tools/approval-wait.js';
export { ApprovalWait } from './tools/approval-wait.js';
export { formatArgumentIssues } from './tools/argument-errors.js';
export type {
  AnyTool,
  ApprovalText,
  Credentials,
  Tool,
  ToolContext,
  ToolOptions,
  ToolRisk,
} from './tools/define-tool.js';
export { defineTool } from './tools/define-tool.js';
export type { ToolCallOutcome, ToolCallRecord } from './tools/tool-call-record.js';
export { DESCRIPTION_LABELS, declareTool, describeTool, toModelSchema } from './tools/tool-declaration.js';
export type { ToolErrorCode, ToolFailure, ToolResultEnvelope } from './tools/tool-result.js';
export { parseToolResult, TOOL_ERROR_CODES, toolError, toolOk } from './tools/tool-result.js';
export type { ToolRunnerOptions } from './tools/tool-runner.js';
export { ToolRunner } from './tools/tool-runner.js';
export { Toolset } from './tools/toolset.js';
