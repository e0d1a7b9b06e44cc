import { z } from 'zod';

/** A function call the model requests. It is only a request: our code validates and runs it. */
export const ToolCall = z.object({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.object({
    name: z.string().min(1),
    /** The arguments as the model wrote them: a JSON text that may be malformed. */
    arguments: z.string(),
  }),
});
export type ToolCall = z.infer<typeof ToolCall>;

export const SystemMessage = z.object({ role: z.literal('system'), content: z.string() });
export type SystemMessage = z.infer<typeof SystemMessage>;

export const UserMessage = z.object({ role: z.literal('user'), content: z.string() });
export type UserMessage = z.infer<typeof UserMessage>;

export const AssistantMessage = z.object({
  role: z.literal('assistant'),
  content: z.string().nullable(),
  tool_calls: z.array(ToolCall).optional(),
});
export type AssistantMessage = z.infer<typeof AssistantMessage>;

export const ToolMessage = z.object({
  role: z.literal('tool'),
  tool_call_id: z.string().min(1),
  content: z.string(),
});
export type ToolMessage = z.infer<typeof ToolMessage>;

/** One message of a conversation, in the Chat Completions shape (`tool_calls`, `tool_call_id`). */
export const ChatMessage = z.discriminatedUnion('role', [
  SystemMessage,
  UserMessage,
  AssistantMessage,
  ToolMessage,
]);
export type ChatMessage = z.infer<typeof ChatMessage>;

/** A JSON Schema object, as produced by `z.toJSONSchema`. */
export type JsonSchema = Record<string, unknown>;

/**
 * What calling a tool does, as its definition declares: its risk (`read`, `write`, or `dangerous`,
 * which waits for a human approval) and whether running it twice with the same arguments is harmless.
 * Model adapters that plan without a model read it (the offline planner calls a write tool only when
 * the request asks for that action); adapters of model APIs do not send it.
 */
export const ToolEffects = z.object({
  risk: z.enum(['read', 'write', 'dangerous']),
  idempotent: z.boolean(),
});
export type ToolEffects = z.infer<typeof ToolEffects>;

/**
 * A tool as the model sees it: name, a description that says when (not) to use it, and its
 * parameters; `effects` (set by `declareTool`) says what calling it does, and stays on this side of
 * a model API.
 */
export const ToolDeclaration = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string().min(1),
    description: z.string(),
    parameters: z.record(z.string(), z.unknown()),
    strict: z.boolean().optional(),
  }),
  effects: ToolEffects.optional(),
});
export type ToolDeclaration = z.infer<typeof ToolDeclaration>;

/** How the model must shape its answer: free text, any JSON object, or JSON that fits a schema. */
export const ResponseFormat = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    json_schema: z.object({
      name: z.string().min(1),
      description: z.string().optional(),
      schema: z.record(z.string(), z.unknown()),
      strict: z.boolean().optional(),
    }),
  }),
]);
export type ResponseFormat = z.infer<typeof ResponseFormat>;

/** Which tool the model may or must call on this request. */
export const ToolChoice = z.union([
  z.enum(['auto', 'none', 'required']),
  z.object({ type: z.literal('function'), function: z.object({ name: z.string() }) }),
]);
export type ToolChoice = z.infer<typeof ToolChoice>;

/** Token counts of one model call. */
export const TokenUsage = z.object({
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  totalTokens: z.number().int().nonnegative(),
});
export type TokenUsage = z.infer<typeof TokenUsage>;

/** Why the model stopped producing output. */
export const FinishReason = z.enum(['stop', 'tool_calls', 'length', 'content_filter']);
export type FinishReason = z.infer<typeof FinishReason>;

/** A usage object with every count at zero. */
export function emptyUsage(): TokenUsage {
  return { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
}

/** Adds two usages. */
export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}
