import { estimatePromptTokens, estimateTextTokens } from '../context/token-estimate.ts';
import { AgentError } from '../errors.ts';
import type {
  ChatModel,
  ChatModelCapabilities,
  ChatRequest,
  ChatResponse,
  ChatStreamEvent,
} from '../model/chat-model.ts';
import { streamFromResponse } from '../model/chat-model.ts';
import type { AssistantMessage, TokenUsage, ToolCall } from '../model/messages.ts';

/** A tool call in a script: arguments as an object (serialised for you) or as raw text (to test bad JSON). */
export interface ScriptedToolCall {
  name: string;
  arguments?: unknown;
  id?: string;
}

/** One scripted model turn: a text answer, tool calls, or a function of the request that picks one. */
export type ScriptedTurn =
  | { text: string; toolCalls?: undefined; usage?: Partial<TokenUsage> }
  | { toolCalls: readonly ScriptedToolCall[]; text?: string; usage?: Partial<TokenUsage> }
  | { error: Error }
  | ((request: ChatRequest, callIndex: number) => ScriptedTurn | ChatResponse);

/** Options of {@link ScriptedModel}. */
export interface ScriptedModelOptions {
  /** The turns, played in order, one per model call. */
  turns: readonly ScriptedTurn[];
  /** Model id reported in responses (default `scripted`). */
  modelId?: string;
  capabilities?: Partial<ChatModelCapabilities>;
  /** Played when the script is exhausted; by default an exhausted script throws `SCRIPT_EXHAUSTED`. */
  whenExhausted?: ScriptedTurn;
}

/** A request as the scripted model recorded it (the abort signal left out). */
export type RecordedRequest = Omit<ChatRequest, 'signal'>;

/**
 * A model that replays scripted turns and records every request, so tests can drive an agent
 * deterministically and assert what the model was sent. Usage is estimated from the request.
 *
 * @example
 * const model = new ScriptedModel({ turns: [
 *   { toolCalls: [{ name: 'get_order', arguments: { orderId: 'A20417' } }] },
 *   { text: 'Your order has shipped.' },
 * ] });
 */
export class ScriptedModel implements ChatModel {
  readonly modelId: string;
  readonly provider = 'scripted';
  readonly capabilities: ChatModelCapabilities;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[] = [];
  readonly #turns: readonly ScriptedTurn[];
  readonly #whenExhausted: ScriptedTurn | undefined;
  #next = 0;

  constructor({ turns, modelId = 'scripted', capabilities = {}, whenExhausted }: ScriptedModelOptions) {
    this.#turns = turns;
    this.#whenExhausted = whenExhausted;
    this.modelId = modelId;
    this.capabilities = { jsonSchema: true, jsonObject: true, parallelToolCalls: true, ...capabilities };
  }

  /** How many turns have been played. */
  get callCount(): number {
    return this.#next;
  }

  async generate(request: ChatRequest): Promise<ChatResponse> {
    const { signal, ...recorded } = request;
    if (signal?.aborted) throw new AgentError('ABORTED', { message: 'The model call was canceled.' });
    this.requests.push(structuredClone(recorded));
    const index = this.#next++;
    const turn = this.#turns[index] ?? this.#whenExhausted;
    if (!turn) {
      throw new AgentError('SCRIPT_EXHAUSTED', {
        message: `The scripted model was called ${index + 1} times but has only ${this.#turns.length} turns. Add turns or set whenExhausted.`,
      });
    }
    return this.#play(turn, request, index);
  }

  async *stream(request: ChatRequest): AsyncIterable<ChatStreamEvent> {
    yield* streamFromResponse(await this.generate(request));
  }

  #play(turn: ScriptedTurn, request: ChatRequest, index: number): ChatResponse {
    if (typeof turn === 'function') {
      const played = turn(request, index);
      return 'message' in played ? played : this.#play(played, request, index);
    }
    if ('error' in turn) throw turn.error;
    const toolCalls: ToolCall[] | undefined = turn.toolCalls?.map((call, i) => ({
      id: call.id ?? `call_${index}_${i}`,
      type: 'function',
      function: {
        name: call.name,
        arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
      },
    }));
    const message: AssistantMessage = {
      role: 'assistant',
      content: turn.text ?? null,
      ...(toolCalls?.length ? { tool_calls: toolCalls } : {}),
    };
    const promptTokens = turn.usage?.promptTokens ?? estimatePromptTokens(request.messages, request.tools);
    const completionTokens =
      turn.usage?.completionTokens ??
      estimateTextTokens((turn.text ?? '') + (toolCalls ?? []).map((c) => c.function.arguments).join(''));
    return {
      id: `scripted-${index}`,
      model: this.modelId,
      message,
      finishReason: toolCalls?.length ? 'tool_calls' : 'stop',
      usage: { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens },
    };
  }
}
