import {
  type ChatModel,
  type ChatRequest,
  type ChatResponse,
  OfflineModel,
  streamFromResponse,
} from '@switchboard/agent';

/**
 * The offline planner made as slow as a hosted model: every call waits `latencyMs` before it answers
 * (a caller that gives up cuts the wait short). The soak serves it over the OpenAI-compatible server,
 * so the services pay a real HTTP call per model turn and the wait costs them no CPU.
 */
export class SlowOfflineModel implements ChatModel {
  readonly modelId = 'scripted-offline';
  readonly provider = 'scripted';
  readonly #offline = new OfflineModel();
  readonly capabilities = this.#offline.capabilities;
  /** Model calls answered so far. */
  calls = 0;

  constructor(private readonly latencyMs: number) {}

  async generate(request: ChatRequest): Promise<ChatResponse> {
    this.calls++;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.latencyMs);
      request.signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    return this.#offline.generate(request);
  }

  async *stream(request: ChatRequest) {
    yield* streamFromResponse(await this.generate(request));
  }
}
