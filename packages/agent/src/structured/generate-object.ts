import { z } from 'zod';
import { AgentError } from '../errors.ts';
import { callModel } from '../loop/call-model.ts';
import type { ChatModel } from '../model/chat-model.ts';
import type { ChatMessage, ResponseFormat, TokenUsage } from '../model/messages.ts';
import { addUsage, emptyUsage } from '../model/messages.ts';
import { type Logger, stderrLogger } from '../observe/logger.ts';
import { type AgentTracer, noopTracer } from '../observe/tracer.ts';
import { formatArgumentIssues } from '../tools/argument-errors.ts';
import { toModelSchema } from '../tools/tool-declaration.ts';
import { toStrictSchema } from './strict-schema.ts';

/** How the schema was asked for: natively, or as a JSON object with the schema in the prompt. */
export type StructuredMode = 'json_schema' | 'json_object';

/** Options of {@link generateObject}. */
export interface GenerateObjectOptions<Schema extends z.ZodType> {
  model: ChatModel;
  /** The shape the answer must have; the answer is re-validated with it whatever the model promised. */
  schema: Schema;
  /** Name of the schema for the model (default `result`). */
  name?: string;
  description?: string;
  /** The conversation to answer; or give `prompt` for a single user message. */
  messages?: readonly ChatMessage[];
  prompt?: string;
  /** Extra system instructions, placed first. */
  system?: string;
  /** Times the validation message is fed back for a corrected answer (default 1). */
  repairRounds?: number;
  signal?: AbortSignal;
  tracer?: AgentTracer;
  logger?: Logger;
  conversationId?: string;
}

/** Typed data, or a typed error; never unvalidated data. */
export type GenerateObjectResult<T> =
  | { ok: true; object: T; mode: StructuredMode; attempts: number; usage: TokenUsage }
  | { ok: false; error: AgentError; mode: StructuredMode; attempts: number; usage: TokenUsage };

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const trimmed = text
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  try {
    return { ok: true, value: JSON.parse(trimmed) };
  } catch (error) {
    return {
      ok: false,
      message: `it is not valid JSON (${error instanceof Error ? error.message : 'parse error'})`,
    };
  }
}

/**
 * Asks a model for data of a zod schema. Uses `json_schema` (strict when the schema allows it) where
 * the model supports it, else `json_object` with the schema in the prompt; validates the answer with
 * zod; on a mismatch feeds the validation message back once and validates again.
 *
 * @example
 * const Ticket = z.object({ sentiment: z.enum(['positive', 'neutral', 'negative']), urgency: z.number().int().min(1).max(5) });
 * const result = await generateObject({ model, schema: Ticket, prompt: 'My parcel is late again!' });
 * if (result.ok) result.object.urgency;
 */
export async function generateObject<Schema extends z.ZodType>({
  model,
  schema,
  name = 'result',
  description,
  messages,
  prompt,
  system,
  repairRounds = 1,
  signal,
  tracer = noopTracer(),
  logger = stderrLogger(),
  conversationId = '',
}: GenerateObjectOptions<Schema>): Promise<GenerateObjectResult<z.output<Schema>>> {
  if (!(schema instanceof z.ZodType)) {
    throw new AgentError('INVALID_OPTIONS', { message: 'generateObject needs a zod schema in `schema`.' });
  }
  if (!messages?.length && !prompt) {
    throw new AgentError('INVALID_OPTIONS', {
      message: 'generateObject needs `messages` or a `prompt` to answer.',
    });
  }
  if (!Number.isInteger(repairRounds) || repairRounds < 0) {
    throw new AgentError('INVALID_OPTIONS', {
      message: `repairRounds must be a whole number >= 0 (got ${repairRounds}).`,
    });
  }
  const jsonSchema = toModelSchema(schema);
  const mode: StructuredMode = model.capabilities.jsonSchema ? 'json_schema' : 'json_object';
  const strict = toStrictSchema(jsonSchema);
  const responseFormat: ResponseFormat =
    mode === 'json_schema'
      ? {
          type: 'json_schema',
          json_schema: {
            name,
            schema: strict.schema,
            strict: strict.strict,
            ...(description ? { description } : {}),
          },
        }
      : model.capabilities.jsonObject
        ? { type: 'json_object' }
        : { type: 'text' };
  const instructions = [
    system,
    mode === 'json_object'
      ? `Answer with only one JSON object, no prose, that matches this JSON Schema:\n${JSON.stringify(jsonSchema)}`
      : undefined,
  ].filter((line): line is string => Boolean(line));
  const conversation: ChatMessage[] = [
    ...instructions.map((content) => ({ role: 'system' as const, content })),
    ...(messages ?? []),
    ...(prompt ? [{ role: 'user' as const, content: prompt }] : []),
  ];

  let usage = emptyUsage();
  let problem = '';
  const attemptsAllowed = 1 + repairRounds;
  for (let attempt = 1; attempt <= attemptsAllowed; attempt++) {
    const response = await callModel({
      model,
      request: { messages: conversation, responseFormat, ...(signal ? { signal } : {}) },
      tracer,
      logger,
      conversationId,
    });
    usage = addUsage(usage, response.usage);
    const text = response.message.content ?? '';
    const parsed = parseJson(text);
    if (parsed.ok) {
      const checked = schema.safeParse(parsed.value, { reportInput: true });
      if (checked.success) return { ok: true, object: checked.data, mode, attempts: attempt, usage };
      problem = formatArgumentIssues(checked.error.issues);
    } else {
      problem = parsed.message;
    }
    conversation.push(
      { role: 'assistant', content: text },
      {
        role: 'user',
        content: `Your answer does not match the required schema: ${problem}. Reply again with only the corrected JSON object.`,
      },
    );
  }
  return {
    ok: false,
    error: new AgentError('STRUCTURED_OUTPUT_INVALID', {
      message: `The model's answer did not match the ${name} schema after ${attemptsAllowed} attempt(s): ${problem}.`,
      details: { schema: name, problem },
    }),
    mode,
    attempts: attemptsAllowed,
    usage,
  };
}
