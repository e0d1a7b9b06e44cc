// errors

export type { TokenEstimator } from './context/token-estimate.js';
// context
export {
  estimateMessageTokens,
  estimatePromptTokens,
  estimateTextTokens,
} from './context/token-estimate.js';
export type { AgentErrorCode, ErrorParty } from './errors.js';
export { AGENT_ERRORS, AgentError, isAgentError } from './errors.js';
export type {
  ChatModel,
  ChatModelCapabilities,
  ChatRequest,
  ChatResponse,
  ChatStreamEvent,
} from './model/chat-model.js';
export { streamFromResponse } from './model/chat-model.js';
export type { JsonSchema } from './model/messages.js';
// model port
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
export type {
  ApprovalAuditRecord,
  AuditRecord,
  AuditSink,
  AuditStatus,
  ToolCallAuditRecord,
} from './observe/audit.js';
export { MemoryAuditSink } from './observe/audit.js';
export type { Logger } from './observe/logger.js';
// observability hooks
export { silentLogger, stderrLogger } from './observe/logger.js';
export type {
  AgentSpan,
  AgentSpanOperation,
  AgentSpanSpec,
  AgentTracer,
  SpanAttributes,
  SpanAttributeValue,
} from './observe/tracer.js';
export { noopTracer } from './observe/tracer.js';
export type {
  AnyTool,
  ApprovalText,
  Credentials,
  Tool,
  ToolContext,
  ToolOptions,
  ToolRisk,
} from './tools/define-tool.js';
// tools
export { defineTool } from './tools/define-tool.js';
export { DESCRIPTION_LABELS, declareTool, describeTool, toModelSchema } from './tools/tool-declaration.js';
export { Toolset } from './tools/toolset.js';
export { TOOL_ERROR_CODES, parseToolResult, toolError, toolOk } from './tools/tool-result.js';
export type { ToolErrorCode, ToolFailure, ToolResultEnvelope } from './tools/tool-result.js';
