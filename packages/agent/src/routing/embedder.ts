/**
 * The port for embedding recall: turns texts into vectors, one per text, in order. The OpenAI-compatible
 * implementation (`OpenAIEmbedder` in `@switchboard/openai`) calls a `/embeddings` endpoint.
 */
export interface Embedder {
  /** Names the embedding model in decision records, e.g. `text-embedding-3-small`. */
  readonly modelId: string;
  embed(texts: readonly string[], options?: { signal?: AbortSignal }): Promise<number[][]>;
  /**
   * What cosine similarity means for this model, so the router can put it on the same [0, 1] scale as
   * lexical relevance: about what an unrelated pair of texts scores (read as 0) and what a request and
   * the description of the tool that serves it score (read as 1). Default `{ unrelated: 0, related: 1 }`
   * (the cosine as it is).
   */
  readonly similarity?: { unrelated: number; related: number };
}

/** The cosine of two embeddings on the router's scale: 0 at the model's `unrelated`, 1 at `related`, clamped. */
export function calibratedSimilarity(
  cosineValue: number,
  { unrelated, related }: { unrelated: number; related: number } = { unrelated: 0, related: 1 },
): number {
  return Math.max(0, Math.min(1, (cosineValue - unrelated) / (related - unrelated)));
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
