import type { ChatModel, ChatRequest, ChatResponse, ChatStreamEvent } from '../model/chat-model.ts';
import { streamFromResponse } from '../model/chat-model.ts';

/** Options of {@link DelayedModel}. */
export interface DelayedModelOptions {
  /** The model that answers after the wait, e.g. `new OfflineModel()`. */
  model: ChatModel;
  /** How long each request waits first, in ms: a number, or chosen per request. */
  delayMs: number | ((request: ChatRequest) => number);
  /** The name it reports (default: the wrapped model's). */
  modelId?: string;
}

/**
 * A model that answers as another does, but later: each request waits `delayMs` first (a caller
 * that gives up cuts the wait short). For benchmarks that need a hosted model's latency without its
 * CPU, and for drills that act while work is in flight.
 *
 * @example
 * const slow = new DelayedModel({ model: new OfflineModel(), delayMs: 200 });
 * const server = await startOpenAICompatibleServer({ model: slow });
 */
export class DelayedModel implements ChatModel {
  readonly modelId: string;
  readonly provider: string;
  readonly capabilities: ChatModel['capabilities'];
  readonly #o: DelayedModelOptions;
  /** Requests answered so far. */
  calls = 0;

  constructor(options: DelayedModelOptions) {
    this.#o = options;
    this.modelId = options.modelId ?? options.model.modelId;
    this.provider = options.model.provider;
    this.capabilities = options.model.capabilities;
  }

  async generate(request: ChatRequest): Promise<ChatResponse> {
    const { delayMs } = this.#o;
    const wait = typeof delayMs === 'function' ? delayMs(request) : delayMs;
    if (wait > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
        request.signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    this.calls++;
    return this.#o.model.generate(request);
  }

  async *stream(request: ChatRequest): AsyncIterable<ChatStreamEvent> {
    yield* streamFromResponse(await this.generate(request));
  }
}
