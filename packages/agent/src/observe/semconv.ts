/**
 * Span and attribute names the runtime emits, after the OpenTelemetry GenAI semantic conventions
 * (status "Development"). One table, so call sites never spell a name by hand.
 */
export const GEN_AI = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  agentName: 'gen_ai.agent.name',
  agentId: 'gen_ai.agent.id',
  conversationId: 'gen_ai.conversation.id',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  responseId: 'gen_ai.response.id',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  usageInputTokens: 'gen_ai.usage.input_tokens',
  usageOutputTokens: 'gen_ai.usage.output_tokens',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  errorType: 'error.type',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
} as const;

/** Switchboard's own attributes, under the `switchboard.` namespace. */
export const SWITCHBOARD = {
  toolRisk: 'switchboard.tool.risk',
  toolAttempts: 'switchboard.tool.attempts',
  toolStatus: 'switchboard.tool.status',
  approvalId: 'switchboard.approval.id',
  agentStep: 'switchboard.agent.step',
  agentStopReason: 'switchboard.agent.stop_reason',
} as const;

/** The span name of an operation on a target: `execute_tool get_order`, `chat gpt-4.1-mini`. */
export function spanName(operation: 'invoke_agent' | 'chat' | 'execute_tool', target: string): string {
  return `${operation} ${target}`;
}
