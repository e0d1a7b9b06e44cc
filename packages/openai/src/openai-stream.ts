import {
  AgentError,
  type ChatResponse,
  type ChatStreamEvent,
  type TokenUsage,
  type ToolCall,
} from '@switchboard/agent';
import {
  assistantMessage,
  badResponse,
  mapFinishReason,
  mapUsage,
  type ResponseContext,
} from './openai-mapping.ts';
import { ChatCompletionChunk } from './openai-wire.ts';

interface PartialToolCall {
  id?: string;
  name?: string;
  arguments: string;
}

/**
 * Reads the `chat.completion.chunk` objects of one streamed answer, turns each into stream events
 * and assembles the complete {@link ChatResponse}. Only the first choice is read.
 */
export class ChatStreamAssembler {
  readonly #context: ResponseContext;
  readonly #text: string[] = [];
  readonly #calls = new Map<number, PartialToolCall>();
  #finishReason: string | undefined;
  #usage: TokenUsage | undefined;
  #id: string | undefined;
  #model: string | undefined;

  constructor(context: ResponseContext) {
    this.#context = context;
  }

  /** True once a chunk carried a finish reason. */
  get finished(): boolean {
    return this.#finishReason !== undefined;
  }

  /** Validates one chunk and returns the events it carries, in order. */
  push(raw: unknown): ChatStreamEvent[] {
    const parsed = ChatCompletionChunk.safeParse(raw);
    if (!parsed.success) throw badResponse(this.#context.endpoint, 'a stream chunk', parsed.error);
    const chunk = parsed.data;
    this.#id ||= chunk.id;
    this.#model ||= chunk.model;
    if (chunk.usage) this.#usage = mapUsage(chunk.usage);
    const events: ChatStreamEvent[] = [];
    const choice = chunk.choices.find((c) => c.index === 0);
    if (!choice) return events;
    if (choice.delta.content) {
      this.#text.push(choice.delta.content);
      events.push({ type: 'text-delta', delta: choice.delta.content });
    }
    for (const delta of choice.delta.tool_calls ?? []) {
      const call = this.#calls.get(delta.index) ?? { arguments: '' };
      const name = delta.function?.name;
      const argumentsDelta = delta.function?.arguments;
      if (delta.id) call.id = delta.id;
      if (name) call.name = name;
      if (argumentsDelta) call.arguments += argumentsDelta;
      this.#calls.set(delta.index, call);
      if (!delta.id && !name && !argumentsDelta) continue;
      events.push({
        type: 'tool-call-delta',
        index: delta.index,
        ...(delta.id ? { id: delta.id } : {}),
        ...(name ? { name } : {}),
        ...(argumentsDelta ? { argumentsDelta } : {}),
      });
    }
    if (choice.finish_reason) this.#finishReason = choice.finish_reason;
    return events;
  }

  /** The assembled answer; tool calls in index order. Throws when a tool call lacks its id or name. */
  response(): ChatResponse {
    const toolCalls: ToolCall[] = [...this.#calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => {
        if (!call.id || !call.name) {
          throw new AgentError('MODEL_BAD_RESPONSE', {
            message: `The model endpoint at ${this.#context.endpoint} streamed tool call ${index} without ${call.id ? 'a name' : 'an id'}.`,
            details: { index, call },
          });
        }
        return { id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } };
      });
    const text = this.#text.join('');
    return {
      message: assistantMessage(text || null, toolCalls),
      finishReason: mapFinishReason(this.#finishReason, toolCalls.length > 0),
      usage: this.#usage ?? mapUsage(undefined),
      model: this.#model || this.#context.model,
      ...(this.#id ? { id: this.#id } : {}),
    };
  }
}
