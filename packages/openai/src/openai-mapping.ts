import {
  AgentError,
  type AssistantMessage,
  type ChatMessage,
  type ChatRequest,
  type ChatResponse,
  emptyUsage,
  type FinishReason,
  type ResponseFormat,
  type TokenUsage,
  type ToolCall,
  type ToolDeclaration,
} from '@switchboard/agent';
import type OpenAI from 'openai';
import type { z } from 'zod';
import { ChatCompletionResponse, type CompletionUsage } from './openai-wire.ts';

/** The Chat Completions parameters of one request, without the `stream` switch. */
export type CompletionParams = Omit<OpenAI.Chat.ChatCompletionCreateParamsNonStreaming, 'stream'>;

/**
 * Maps a {@link ChatRequest} to Chat Completions parameters. `tool_choice` and `parallel_tool_calls`
 * are only sent with tools, because endpoints refuse them without.
 */
export function toCompletionParams(request: ChatRequest, model: string): CompletionParams {
  const tools = request.tools?.length ? request.tools.map(toToolParam) : undefined;
  return {
    model,
    messages: request.messages.map(toMessageParam),
    ...(tools ? { tools } : {}),
    ...(tools && request.toolChoice !== undefined ? { tool_choice: request.toolChoice } : {}),
    ...(tools && request.parallelToolCalls !== undefined
      ? { parallel_tool_calls: request.parallelToolCalls }
      : {}),
    ...(request.responseFormat ? { response_format: toResponseFormatParam(request.responseFormat) } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
  };
}

function toMessageParam(message: ChatMessage): OpenAI.Chat.ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.tool_calls?.length ? { tool_calls: message.tool_calls.map(copyToolCall) } : {}),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: message.tool_call_id, content: message.content };
    default:
      return assertNever(message);
  }
}

function toToolParam(tool: ToolDeclaration): OpenAI.Chat.ChatCompletionFunctionTool {
  return { type: 'function', function: { ...tool.function } };
}

function toResponseFormatParam(
  format: ResponseFormat,
): NonNullable<OpenAI.Chat.ChatCompletionCreateParams['response_format']> {
  return format.type === 'json_schema'
    ? { type: 'json_schema', json_schema: { ...format.json_schema } }
    : { type: format.type };
}

function copyToolCall(call: ToolCall): ToolCall {
  return { id: call.id, type: 'function', function: { ...call.function } };
}

/**
 * Maps the endpoint's finish reason. Compatible servers disagree here (`function_call`, `stop` with
 * tool calls, made-up values), so whether tool calls are present decides between `tool_calls` and `stop`.
 */
export function mapFinishReason(raw: string | null | undefined, hasToolCalls: boolean): FinishReason {
  if (raw === 'length' || raw === 'content_filter') return raw;
  return hasToolCalls ? 'tool_calls' : 'stop';
}

/** Maps the endpoint's usage; zeros when it sent none. */
export function mapUsage(usage: CompletionUsage | null | undefined): TokenUsage {
  if (!usage) return emptyUsage();
  return {
    promptTokens: usage.prompt_tokens,
    completionTokens: usage.completion_tokens,
    totalTokens: usage.total_tokens ?? usage.prompt_tokens + usage.completion_tokens,
  };
}

/** Builds an assistant message; `tool_calls` only when there are some. */
export function assistantMessage(content: string | null, toolCalls: readonly ToolCall[]): AssistantMessage {
  return { role: 'assistant', content, ...(toolCalls.length ? { tool_calls: [...toolCalls] } : {}) };
}

/** Where a response came from, for error messages. */
export interface ResponseContext {
  /** The endpoint as shown in messages (no credentials, no query). */
  endpoint: string;
  /** The model asked for; reported when the endpoint does not name one. */
  model: string;
}

/** Validates a `chat.completion` object and maps it to a {@link ChatResponse}. */
export function toChatResponse(raw: unknown, { endpoint, model }: ResponseContext): ChatResponse {
  const parsed = ChatCompletionResponse.safeParse(raw);
  if (!parsed.success) throw badResponse(endpoint, 'a chat completion', parsed.error);
  const choice = parsed.data.choices[0];
  if (!choice) {
    throw new AgentError('MODEL_BAD_RESPONSE', {
      message: `The model endpoint at ${endpoint} answered with no choices. Check that it serves chat completions for model "${model}".`,
    });
  }
  const toolCalls = (choice.message.tool_calls ?? []).map(copyToolCall);
  return {
    message: assistantMessage(choice.message.content ?? null, toolCalls),
    finishReason: mapFinishReason(choice.finish_reason, toolCalls.length > 0),
    usage: mapUsage(parsed.data.usage),
    model: parsed.data.model || model,
    ...(parsed.data.id ? { id: parsed.data.id } : {}),
  };
}

/** A `MODEL_BAD_RESPONSE` error that names the first field the endpoint got wrong. */
export function badResponse(endpoint: string, what: string, error: z.ZodError): AgentError {
  const issue = error.issues[0];
  const where = issue?.path.length ? ` at "${issue.path.join('.')}"` : '';
  return new AgentError('MODEL_BAD_RESPONSE', {
    message: `The model endpoint at ${endpoint} sent ${what} we cannot read${where}: ${issue?.message ?? 'invalid shape'}.`,
    details: { issues: error.issues },
  });
}

function assertNever(value: never): never {
  throw new AgentError('MALFORMED_HISTORY', {
    message: `Unknown message role in ${JSON.stringify(value)}. Use system, user, assistant or tool.`,
  });
}
