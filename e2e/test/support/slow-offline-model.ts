import {
  type ChatModel,
  type ChatRequest,
  type ChatResponse,
  OfflineModel,
  streamFromResponse,
} from '@switchboard/agent';

/**
 * The offline planner behind a scripted OpenAI-compatible server, made slow on purpose: the orders
 * agent's model calls (the ones that declare `get_order`) take `delayMs` when the request says
 * "slowly", so a test can act while a delegation is in flight.
 */
export class SlowOfflineModel implements ChatModel {
  readonly modelId = 'scripted-offline';
  readonly provider = 'scripted';
  readonly #offline = new OfflineModel();
  readonly capabilities = this.#offline.capabilities;

  constructor(private readonly delayMs: number) {}

  async generate(request: ChatRequest): Promise<ChatResponse> {
    const ordersAgent = request.tools?.some((tool) => tool.function.name === 'get_order');
    const slowly = request.messages.some(
      (message) => message.role === 'user' && /slowly/i.test(message.content),
    );
    if (ordersAgent && slowly) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.delayMs);
        request.signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.#offline.generate(request);
  }

  async *stream(request: ChatRequest) {
    yield* streamFromResponse(await this.generate(request));
  }
}
