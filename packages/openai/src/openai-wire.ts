import { ChatMessage, ResponseFormat, ToolChoice, ToolDeclaration } from '@switchboard/agent';
import { z } from 'zod';

/**
 * The body of `POST /v1/chat/completions`, as far as Switchboard uses it. Unknown fields are
 * dropped, not refused, as most OpenAI-compatible servers do.
 */
export const ChatCompletionRequestBody = z.object({
  model: z.string().min(1),
  messages: z.array(ChatMessage).min(1),
  tools: z.array(ToolDeclaration).optional(),
  tool_choice: ToolChoice.optional(),
  parallel_tool_calls: z.boolean().optional(),
  response_format: ResponseFormat.optional(),
  temperature: z.number().min(0).max(2).optional(),
  max_tokens: z.number().int().positive().optional(),
  stream: z.boolean().optional(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).optional(),
});
export type ChatCompletionRequestBody = z.infer<typeof ChatCompletionRequestBody>;

/** Token counts as the endpoint reports them. */
export const CompletionUsage = z.object({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  total_tokens: z.number().int().nonnegative().optional(),
});
export type CompletionUsage = z.infer<typeof CompletionUsage>;

/** A complete tool call in a `chat.completion` message. */
export const CompletionToolCall = z.object({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.object({ name: z.string().min(1), arguments: z.string() }),
});
export type CompletionToolCall = z.infer<typeof CompletionToolCall>;

/**
 * A `chat.completion` object, with only the fields we rely on. `finish_reason` stays a free string
 * because compatible servers send values outside OpenAI's list.
 */
export const ChatCompletionResponse = z.object({
  id: z.string().optional(),
  object: z.literal('chat.completion').optional(),
  created: z.number().optional(),
  model: z.string().optional(),
  choices: z.array(
    z.object({
      index: z.number().int().nonnegative(),
      message: z.object({
        role: z.literal('assistant'),
        content: z.string().nullish(),
        tool_calls: z.array(CompletionToolCall).nullish(),
      }),
      finish_reason: z.string().nullish(),
    }),
  ),
  usage: CompletionUsage.nullish(),
});
export type ChatCompletionResponse = z.infer<typeof ChatCompletionResponse>;

/** A fragment of a tool call in a `chat.completion.chunk`; `index` says which call it extends. */
export const ChunkToolCallDelta = z.object({
  index: z.number().int().nonnegative(),
  id: z.string().min(1).optional(),
  type: z.literal('function').optional(),
  function: z.object({ name: z.string().optional(), arguments: z.string().optional() }).optional(),
});
export type ChunkToolCallDelta = z.infer<typeof ChunkToolCallDelta>;

/** One `chat.completion.chunk` of a streamed answer; the usage chunk has no choices. */
export const ChatCompletionChunk = z.object({
  id: z.string().optional(),
  object: z.literal('chat.completion.chunk').optional(),
  created: z.number().optional(),
  model: z.string().optional(),
  choices: z.array(
    z.object({
      index: z.number().int().nonnegative(),
      delta: z.object({
        role: z.literal('assistant').nullish(),
        content: z.string().nullish(),
        tool_calls: z.array(ChunkToolCallDelta).nullish(),
      }),
      finish_reason: z.string().nullish(),
    }),
  ),
  usage: CompletionUsage.nullish(),
});
export type ChatCompletionChunk = z.infer<typeof ChatCompletionChunk>;

/** The error body OpenAI-compatible servers answer with. */
export const ChatCompletionErrorBody = z.object({
  error: z.object({
    message: z.string(),
    type: z.string(),
    param: z.string().nullable(),
    code: z.string().nullable(),
  }),
});
export type ChatCompletionErrorBody = z.infer<typeof ChatCompletionErrorBody>;
