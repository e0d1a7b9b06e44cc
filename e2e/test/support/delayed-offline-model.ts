import {
  type ChatModel,
  type ChatRequest,
  type ChatResponse,
  OfflineModel,
  streamFromResponse,
} from '@switchboard/agent';

/** Which agent a model request comes from, by the tools it declares. */
export function agentOf(request: ChatRequest): 'orders' | 'inventory' | 'comms' | 'supervisor' | 'unknown' {
  const tools = new Set(request.tools?.map((tool) => tool.function.name));
  if (tools.has('get_order')) return 'orders';
  if (tools.has('check_stock')) return 'inventory';
  if (tools.has('extract_ticket')) return 'comms';
  return [...tools].some((name) => name.startsWith('orders_')) ? 'supervisor' : 'unknown';
}

/** The user's latest words in a model request. */
export function userText(request: ChatRequest): string {
  const user = [...request.messages].reverse().find((message) => message.role === 'user');
  return user?.role === 'user' ? user.content : '';
}

/**
 * The offline planner behind a scripted OpenAI-compatible server, with a latency chosen per request
 * (`delayMs`), so drills can act while work is in flight. A caller that gives up cuts the wait short.
 */
export class DelayedOfflineModel implements ChatModel {
  readonly modelId = 'scripted-offline';
  readonly provider = 'scripted';
  readonly #offline = new OfflineModel();
  readonly capabilities = this.#offline.capabilities;

  constructor(private readonly delayMs: (request: ChatRequest) => number) {}

  async generate(request: ChatRequest): Promise<ChatResponse> {
    const delay = this.delayMs(request);
    if (delay > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
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
