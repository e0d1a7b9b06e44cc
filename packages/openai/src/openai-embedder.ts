import { AgentError, type Embedder } from '@switchboard/agent';
import OpenAI from 'openai';
import { z } from 'zod';
import { describeEndpoint, type EndpointContext, toAgentError } from './openai-errors.ts';

/** Options of {@link OpenAIEmbedder}. */
export interface OpenAIEmbedderOptions {
  /** The embedding model the endpoint serves, e.g. `text-embedding-3-small`, `nomic-embed-text`. */
  model: string;
  /** Sent as `Authorization: Bearer …`. Servers that check no key still need a non-empty string. */
  apiKey: string;
  /** The endpoint up to `/v1` (default `https://api.openai.com/v1`). */
  baseURL?: string;
  /** Per-request timeout (default: the `openai` client's). */
  timeoutMs?: number;
  /** Retries of connection errors, 408, 409, 429 and 5xx (default: the `openai` client's, 2). */
  maxRetries?: number;
  /** Texts per request at most (default 256); longer lists are sent in batches. */
  batchSize?: number;
  /**
   * What this model's cosine similarity means, for the router's hybrid recall: about what an
   * unrelated request and tool description score, and what a request and its own tool's score
   * (default: the cosine as it is, 0 and 1). Measure it on your tools, e.g. with `switchboard eval routing`.
   */
  similarity?: { unrelated: number; related: number };
}

const OptionsSchema = z.object({
  model: z.string().trim().min(1, 'model must name the embedding model, e.g. "text-embedding-3-small"'),
  apiKey: z
    .string()
    .min(1, 'apiKey must not be empty; servers that check no key accept any text, e.g. "local"'),
  baseURL: z.url({ protocol: /^https?$/, error: 'baseURL must be an http(s) URL up to /v1' }),
  timeoutMs: z.number().int().positive('timeoutMs must be a positive number of milliseconds').optional(),
  maxRetries: z.number().int().nonnegative('maxRetries must be 0 or more').optional(),
  batchSize: z
    .number()
    .int()
    .min(1, 'batchSize must be at least 1')
    .max(2048, 'batchSize must be at most 2048'),
  similarity: z
    .object({ unrelated: z.number().min(-1).max(1), related: z.number().min(-1).max(1) })
    .refine(
      ({ unrelated, related }) => related > unrelated,
      'similarity.related must be above similarity.unrelated',
    )
    .optional(),
});

/**
 * The {@link Embedder} port on the official `openai` client, for any OpenAI-compatible `/embeddings`
 * endpoint: the tool router's embedding recall. Failures reject with an `AgentError` as the chat model's do.
 *
 * @example
 * // The key comes from the app's configuration (e.g. its validated env), passed in as an option.
 * const embedder = new OpenAIEmbedder({ model: 'text-embedding-3-small', apiKey: config.openaiApiKey });
 * const router = new ToolRouter({ embedder });
 */
export class OpenAIEmbedder implements Embedder {
  readonly modelId: string;
  readonly similarity?: { unrelated: number; related: number };
  readonly #client: OpenAI;
  readonly #context: EndpointContext;
  readonly #batchSize: number;

  constructor(options: OpenAIEmbedderOptions) {
    const parsed = OptionsSchema.safeParse({
      baseURL: 'https://api.openai.com/v1',
      batchSize: 256,
      ...options,
    });
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
      throw new AgentError('INVALID_OPTIONS', {
        message: `OpenAIEmbedder options are not valid: ${problems.join('; ')}.`,
        details: { problems },
      });
    }
    const { model, apiKey, baseURL, timeoutMs, maxRetries, batchSize, similarity } = parsed.data;
    this.modelId = model;
    if (similarity) this.similarity = similarity;
    this.#batchSize = batchSize;
    this.#context = { endpoint: describeEndpoint(baseURL), model, apiKey, timeoutMs };
    this.#client = new OpenAI({
      apiKey,
      baseURL,
      ...(timeoutMs === undefined ? {} : { timeout: timeoutMs }),
      ...(maxRetries === undefined ? {} : { maxRetries }),
    });
  }

  async embed(texts: readonly string[], { signal }: { signal?: AbortSignal } = {}): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += this.#batchSize) {
      const input = texts.slice(start, start + this.#batchSize);
      let response: OpenAI.CreateEmbeddingResponse;
      try {
        response = await this.#client.embeddings.create(
          { model: this.modelId, input, encoding_format: 'float' },
          signal ? { signal } : {},
        );
      } catch (error) {
        throw toAgentError(error, this.#context, signal);
      }
      const ordered = [...response.data].sort((a, b) => a.index - b.index);
      if (ordered.length !== input.length || ordered.some((item) => !Array.isArray(item.embedding))) {
        throw new AgentError('MODEL_BAD_RESPONSE', {
          message: `The embeddings endpoint at ${this.#context.endpoint} returned ${ordered.length} vectors for ${input.length} texts.`,
          details: { endpoint: this.#context.endpoint },
        });
      }
      vectors.push(...ordered.map((item) => item.embedding));
    }
    return vectors;
  }
}
