/**
 * The port for embedding recall: turns texts into vectors, one per text, in order. The OpenAI-compatible
 * implementation (`OpenAIEmbedder` in `@switchboard/openai`) calls a `/embeddings` endpoint.
 */
export interface Embedder {
  /** Names the embedding model in decision records, e.g. `text-embedding-3-small`. */
  readonly modelId: string;
  embed(texts: readonly string[], options?: { signal?: AbortSignal }): Promise<number[][]>;
}

/** Cosine similarity of two vectors, floored at 0 (an opposite meaning is as irrelevant as none). */
export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  if (normA === 0 || normB === 0) return 0;
  return Math.max(0, Math.min(1, dot / Math.sqrt(normA * normB)));
}
