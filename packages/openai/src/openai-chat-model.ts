import {
  AgentError,
  type ChatModel,
  type ChatModelCapabilities,
  type ChatRequest,
  type ChatResponse,
  type ChatStreamEvent,
} from '@switchboard/agent';
import OpenAI from 'openai';
import { z } from 'zod';
import { describeEndpoint, type EndpointContext, toAgentError } from './openai-errors.ts';
import { toChatResponse, toCompletionParams } from './openai-mapping.ts';
import { ChatStreamAssembler } from './openai-stream.ts';

/** Options of {@link OpenAIChatModel}. */
export interface OpenAIChatModelOptions {
  /** The model name sent to the endpoint, e.g. `gpt-4.1-mini`, `qwen-plus`, `llama3.1`. */
  model: string;
  /** Sent as `Authorization: Bearer …`. Servers that check no key still need a non-empty string. */
  apiKey: string;
  /**
   * The endpoint up to `/v1`, e.g. `http://127.0.0.1:11434/v1` for Ollama
   * (default `https://api.openai.com/v1`).
   */
  baseURL?: string;
  organization?: string;
  /** Extra headers sent with every request (e.g. a gateway's routing header). */
  defaultHeaders?: Record<string, string>;
  /** Per-request timeout (default: the `openai` client's, 10 minutes). */
  timeoutMs?: number;
  /** Retries of connection errors, 408, 409, 429 and 5xx (default: the `openai` client's, 2). */
  maxRetries?: number;
  /** The provider name for OpenTelemetry GenAI attributes (default `openai`), e.g. `azure.ai.openai`. */
  provider?: string;
  /**
   * What the endpoint supports (default: everything). Many compatible servers lack `json_schema`:
   * set `{ jsonSchema: false }` for them.
   */
  capabilities?: Partial<ChatModelCapabilities>;
  /**
   * A configured `OpenAI` client to use instead of building one from the options above (custom
   * fetch, proxy, Azure). `baseURL` should still name its endpoint: error messages show it.
   */
  client?: OpenAI;
}

const OptionsSchema = z.object({
  model: z
    .string({ error: 'model must be a string' })
    .trim()
    .min(1, 'model must name the model the endpoint serves, e.g. "gpt-4.1-mini"'),
  apiKey: z
    .string({ error: 'apiKey must be a string' })
    .min(1, 'apiKey must not be empty; servers that check no key accept any text, e.g. "local"'),
  baseURL: z.url({
    protocol: /^https?$/,
    error: 'baseURL must be an http(s) URL up to /v1, e.g. "https://api.openai.com/v1"',
  }),
  organization: z.string().min(1, 'organization must not be empty; leave it out instead').optional(),
  defaultHeaders: z
    .record(z.string(), z.string(), { error: 'defaultHeaders values must be strings' })
    .optional(),
  timeoutMs: z.number().int().positive('timeoutMs must be a positive number of milliseconds').optional(),
  maxRetries: z.number().int().nonnegative('maxRetries must be 0 or more').optional(),
  provider: z.string().min(1, 'provider must not be empty; leave it out for "openai"'),
  capabilities: z
    .object({ jsonSchema: z.boolean(), jsonObject: z.boolean(), parallelToolCalls: z.boolean() })
    .partial()
    .optional(),
  client: z
    .custom<OpenAI>((value) => typeof value === 'object' && value !== null && 'chat' in value, {
      error: 'client must be an OpenAI client instance',
    })
    .optional(),
});

/**
 * The {@link ChatModel} port on the official `openai` client, for any OpenAI-compatible Chat
 * Completions endpoint: OpenAI, Azure OpenAI, vLLM, Ollama, DashScope (Qwen) and others.
 * Failures reject with an `AgentError` (`MODEL_AUTH`, `MODEL_RATE_LIMITED`, `MODEL_BAD_REQUEST`,
 * `MODEL_UNAVAILABLE`, `MODEL_BAD_RESPONSE`, `ABORTED`) whose message never contains the API key.
 *
 * @example
 * const model = new OpenAIChatModel({
 *   model: 'qwen-plus',
 *   apiKey: config.dashscopeKey,
 *   baseURL: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
 *   capabilities: { jsonSchema: false },
 * });
 * const answer = await model.generate({ messages: [{ role: 'user', content: 'Hello' }] });
 */
export class OpenAIChatModel implements ChatModel {
  readonly modelId: string;
  readonly provider: string;
  readonly capabilities: ChatModelCapabilities;
  readonly #client: OpenAI;
  readonly #context: EndpointContext;

  constructor({
    model,
    apiKey,
    baseURL = 'https://api.openai.com/v1',
    organization,
    defaultHeaders,
    timeoutMs,
    maxRetries,
    provider = 'openai',
    capabilities = {},
    client,
  }: OpenAIChatModelOptions) {
    const options = { model, apiKey, baseURL, organization, defaultHeaders, timeoutMs, maxRetries };
    const checked = OptionsSchema.safeParse({ ...options, provider, capabilities, client });
    if (!checked.success) {
      const problems = checked.error.issues.map((issue) => issue.message).join('; ');
      throw new AgentError('INVALID_OPTIONS', {
        message: `new OpenAIChatModel(...) got invalid options: ${problems}.`,
        details: { fields: checked.error.issues.map((issue) => issue.path.join('.')) },
      });
    }
    this.modelId = checked.data.model;
    this.provider = provider;
    this.capabilities = { jsonSchema: true, jsonObject: true, parallelToolCalls: true, ...capabilities };
    this.#client =
      client ??
      new OpenAI({
        apiKey,
        baseURL,
        // Explicit nulls keep the client from reading OPENAI_* environment variables.
        organization: organization ?? null,
        project: null,
        adminAPIKey: null,
        webhookSecret: null,
        ...(defaultHeaders ? { defaultHeaders } : {}),
        ...(timeoutMs !== undefined ? { timeout: timeoutMs } : {}),
        ...(maxRetries !== undefined ? { maxRetries } : {}),
      });
    this.#context = {
      endpoint: describeEndpoint(client?.baseURL ?? baseURL),
      model: this.modelId,
      apiKey,
      timeoutMs,
    };
  }

  /** Sends one request (`stream: false`) and resolves with the complete answer. */
  async generate(request: ChatRequest): Promise<ChatResponse> {
    const { signal } = request;
    let raw: unknown;
    try {
      raw = await this.#client.chat.completions.create(
        { ...toCompletionParams(request, this.modelId), stream: false },
        { signal },
      );
    } catch (error) {
      throw toAgentError(error, this.#context, signal);
    }
    return toChatResponse(raw, this.#context);
  }

  /**
   * Sends one streaming request and yields text and tool-call fragments as they arrive, then a
   * `finish` event with the assembled answer and the usage the endpoint reported.
   */
  async *stream(request: ChatRequest): AsyncIterable<ChatStreamEvent> {
    const { signal } = request;
    const assembler = new ChatStreamAssembler(this.#context);
    try {
      const chunks = await this.#client.chat.completions.create(
        {
          ...toCompletionParams(request, this.modelId),
          stream: true,
          stream_options: { include_usage: true },
        },
        { signal },
      );
      for await (const chunk of chunks) yield* assembler.push(chunk);
    } catch (error) {
      throw toAgentError(error, this.#context, signal);
    }
    // The client ends the stream quietly on abort, so a cut-short answer must be caught here.
    if (signal?.aborted) throw new AgentError('ABORTED', { message: 'The model call was canceled.' });
    if (!assembler.finished) {
      throw new AgentError('MODEL_BAD_RESPONSE', {
        message: `The stream from the model endpoint at ${this.#context.endpoint} ended before the answer was complete.`,
      });
    }
    yield { type: 'finish', response: assembler.response() };
  }
}
