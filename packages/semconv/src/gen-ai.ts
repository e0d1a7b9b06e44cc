/**
 * `gen_ai.*` attributes, from the OpenTelemetry GenAI semantic conventions (the registry of the
 * `semantic-conventions-genai` repository; status "Development"). Every name here is theirs.
 */
export const GEN_AI = {
  /** `invoke_agent`, `chat` or `execute_tool` ({@link GenAiOperation}). */
  operationName: 'gen_ai.operation.name',
  /** The model port's provider, e.g. `openai`. */
  providerName: 'gen_ai.provider.name',
  /** The agent's name; on A2A spans, the name on the served agent's card. */
  agentName: 'gen_ai.agent.name',
  /** The conversation; on A2A spans, the A2A `contextId` (the A2A conventions put it here). */
  conversationId: 'gen_ai.conversation.id',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  responseId: 'gen_ai.response.id',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  usageInputTokens: 'gen_ai.usage.input_tokens',
  usageOutputTokens: 'gen_ai.usage.output_tokens',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  /** `function` for the runtime's tools. */
  toolType: 'gen_ai.tool.type',
  /** Content (recorded only when capture is on, redacted): the chat history sent to the model. */
  inputMessages: 'gen_ai.input.messages',
  /** Content: what the model answered. */
  outputMessages: 'gen_ai.output.messages',
  /** Content: a tool call's arguments. */
  toolCallArguments: 'gen_ai.tool.call.arguments',
  /** Content: a tool call's result. */
  toolCallResult: 'gen_ai.tool.call.result',
} as const;

/** The `gen_ai.operation.name` values the agent runtime emits, which also open its span names. */
export type GenAiOperation = 'invoke_agent' | 'chat' | 'execute_tool';

/**
 * The name of a GenAI span, after the conventions: `{operation} {target}`, the target being the
 * agent's name, the requested model or the tool's name.
 *
 * @example
 * genAiSpanName({ operation: 'execute_tool', target: 'get_order' }); // 'execute_tool get_order'
 */
export function genAiSpanName({ operation, target }: { operation: GenAiOperation; target: string }): string {
  return `${operation} ${target}`;
}
