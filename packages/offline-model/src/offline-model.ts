import {
  AgentError,
  type AssistantMessage,
  type ChatModel,
  type ChatModelCapabilities,
  type ChatRequest,
  type ChatResponse,
  type ChatStreamEvent,
  estimatePromptTokens,
  estimateTextTokens,
  streamFromResponse,
  type ToolCall,
} from '@switchboard/agent';
import { readConversation } from './conversation.ts';
import { decide } from './plan.ts';

/** Options of {@link OfflineModel}. */
export interface OfflineModelOptions {
  /** Model id reported in responses (default `offline-planner`). */
  modelId?: string;
  /**
   * Least relevance, in [0, 1], for a tool to be considered: the TF-IDF cosine similarity between the
   * request and the tool's name, summary and "Use when" text, minus that with its "Do not use when"
   * text (default 0.1). Raise it to make the planner more cautious.
   */
  minScore?: number;
  /** Most tool calls for one user request, chained or parallel (default 4). */
  maxToolCalls?: number;
  /** The clock for "today" and "tomorrow" (default: the system clock). */
  now?: () => Date;
}

/** The relevance a tool needs by default; see {@link OfflineModelOptions.minScore}. */
export const DEFAULT_MIN_SCORE = 0.1;

/**
 * A deterministic planner that implements the model port without a network or weights. It reads the
 * request like a model would: picks tools by lexical similarity with their descriptions, fills
 * arguments from the user's words and earlier results using the JSON schemas, chains tools whose
 * inputs earlier results supply, and answers from tool results only. It never invents facts and says
 * plainly when a request is beyond it. Useful for demos, offline development and tests.
 *
 * One argument rule is for delegation: a required string argument named `request` (a request to
 * hand on, as a supervisor's delegation tools take) is filled with the user's whole request, never
 * with a fragment of it.
 *
 * @example
 * const model = new OfflineModel();
 * const response = await model.generate({
 *   messages: [{ role: 'user', content: 'Where is my order a20417?' }],
 *   tools: new Toolset([getOrder]).declarations(),
 * });
 * response.message.tool_calls?.[0]?.function // { name: 'get_order', arguments: '{"orderId":"A20417"}' }
 */
export class OfflineModel implements ChatModel {
  readonly modelId: string;
  readonly provider = 'offline';
  readonly capabilities: ChatModelCapabilities = {
    jsonSchema: true,
    jsonObject: true,
    parallelToolCalls: true,
  };
  readonly #minScore: number;
  readonly #maxToolCalls: number;
  readonly #now: () => Date;

  constructor({
    modelId = 'offline-planner',
    minScore = DEFAULT_MIN_SCORE,
    maxToolCalls = 4,
    now = () => new Date(),
  }: OfflineModelOptions = {}) {
    const problems: string[] = [];
    if (!modelId.trim()) problems.push('modelId is empty: leave it out or name the model');
    if (!Number.isFinite(minScore) || minScore < 0 || minScore > 1)
      problems.push(`minScore ${minScore} must be a number from 0 to 1`);
    if (!Number.isInteger(maxToolCalls) || maxToolCalls < 1)
      problems.push(`maxToolCalls ${maxToolCalls} must be a whole number >= 1`);
    if (typeof now !== 'function') problems.push('now must be a function returning a Date');
    if (problems.length > 0) {
      throw new AgentError('INVALID_OPTIONS', {
        message: `OfflineModel options are not valid: ${problems.join('; ')}.`,
        details: { problems },
      });
    }
    this.modelId = modelId;
    this.#minScore = minScore;
    this.#maxToolCalls = maxToolCalls;
    this.#now = now;
  }

  async generate(request: ChatRequest): Promise<ChatResponse> {
    if (request.signal?.aborted) throw new AgentError('ABORTED', { message: 'The model call was canceled.' });
    const decision = decide(request, {
      minScore: this.#minScore,
      maxToolCalls: this.#maxToolCalls,
      now: this.#now(),
    });
    const turn = readConversation(request.messages).assistantTurns;
    const toolCalls: ToolCall[] =
      decision.kind === 'calls'
        ? decision.calls.map((call, index) => ({
            id: `offline_${turn}_${index}`,
            type: 'function',
            function: { name: call.name, arguments: JSON.stringify(call.arguments) },
          }))
        : [];
    const content = decision.kind === 'answer' ? decision.text : null;
    const message: AssistantMessage =
      toolCalls.length > 0
        ? { role: 'assistant', content, tool_calls: toolCalls }
        : { role: 'assistant', content };
    const written =
      (content ?? '') + toolCalls.map((call) => call.function.name + call.function.arguments).join('');
    const promptTokens = estimatePromptTokens(request.messages, request.tools);
    const completionTokens = estimateTextTokens(written);
    return {
      id: `offline-${turn}`,
      model: this.modelId,
      message,
      finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
      usage: { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens },
    };
  }

  async *stream(request: ChatRequest): AsyncIterable<ChatStreamEvent> {
    yield* streamFromResponse(await this.generate(request));
  }
}
