import type {
  AssistantMessage,
  ChatMessage,
  FinishReason,
  ResponseFormat,
  TokenUsage,
  ToolChoice,
  ToolDeclaration,
} from './messages.ts';

/** One request to a chat model, in the Chat Completions shape. */
export interface ChatRequest {
  messages: readonly ChatMessage[];
  /** Tools the model may request. Sent with every request of an agent run. */
  tools?: readonly ToolDeclaration[];
  toolChoice?: ToolChoice;
  /** Allow several tool calls in one assistant message (default: the model's own default). */
  parallelToolCalls?: boolean;
  responseFormat?: ResponseFormat;
  temperature?: number;
  maxTokens?: number;
  /** Aborts the call; the model must stop and reject with an `ABORTED` error. */
  signal?: AbortSignal;
}

/** A model's complete answer to one {@link ChatRequest}. */
export interface ChatResponse {
  message: AssistantMessage;
  finishReason: FinishReason;
  usage: TokenUsage;
  /** The model that answered, as the endpoint reports it. */
  model: string;
  id?: string;
}

/** What a streaming model call yields, in order; the last event is always `finish`. */
export type ChatStreamEvent =
  | { type: 'text-delta'; delta: string }
  | { type: 'tool-call-delta'; index: number; id?: string; name?: string; argumentsDelta?: string }
  | { type: 'finish'; response: ChatResponse };

/** What a model can do, so callers pick the right request shape. */
export interface ChatModelCapabilities {
  /** Accepts `response_format: { type: "json_schema", strict: true }`. */
  jsonSchema: boolean;
  /** Accepts `response_format: { type: "json_object" }`. */
  jsonObject: boolean;
  /** Can return several tool calls in one message. */
  parallelToolCalls: boolean;
}

/**
 * The model port. Adapters: `OpenAIChatModel` (any OpenAI-compatible endpoint), `OfflineModel`
 * (deterministic, no network) and, for tests, `ScriptedModel` from `@switchboard/agent/testing`.
 */
export interface ChatModel {
  /** The model name sent to the endpoint (e.g. `gpt-4.1-mini`, `qwen-plus`, `offline-planner`). */
  readonly modelId: string;
  /** The provider, as the OpenTelemetry GenAI conventions name it (e.g. `openai`, `offline`). */
  readonly provider: string;
  readonly capabilities: ChatModelCapabilities;
  /** Sends one request and resolves with the complete answer. */
  generate(request: ChatRequest): Promise<ChatResponse>;
  /** Sends one request and yields the answer as it arrives; ends with a `finish` event. */
  stream(request: ChatRequest): AsyncIterable<ChatStreamEvent>;
}

/**
 * Turns a complete response into the stream a streaming call would have produced, for models that
 * compute their answer at once (offline, scripted).
 */
export async function* streamFromResponse(response: ChatResponse): AsyncIterable<ChatStreamEvent> {
  if (response.message.content) yield { type: 'text-delta', delta: response.message.content };
  for (const [index, call] of (response.message.tool_calls ?? []).entries()) {
    yield {
      type: 'tool-call-delta',
      index,
      id: call.id,
      name: call.function.name,
      argumentsDelta: call.function.arguments,
    };
  }
  yield { type: 'finish', response };
}
