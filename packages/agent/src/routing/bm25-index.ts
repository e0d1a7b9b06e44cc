import { contentTokens } from './lexical.ts';

/** BM25's term-frequency saturation and length normalisation, at their usual values. */
const K1 = 1.2;
const B = 0.75;

/** One document's relevance to a query. */
export interface Bm25Hit {
  id: string;
  /**
   * The BM25 score divided by the score of a document of average length that holds every query word
   * once, capped at 1: about the share of the request's weight (rare words weigh more) that the
   * document explains. Query words no document has keep the highest weight, so an off-topic request
   * scores low instead of matching the one common word it shares.
   */
  relevance: number;
  /** The raw BM25 score: orders documents whose relevance is capped at 1 alike. */
  score: number;
  /** The query words the document contains. */
  matched: string[];
}

/**
 * A BM25 index over short documents (tool descriptions), built from the same stemmed content words the
 * offline planner reads. Scores come back normalised to [0, 1] so a threshold can be stated on them.
 */
export class Bm25Index {
  readonly #documents = new Map<string, Map<string, number>>();
  readonly #lengths = new Map<string, number>();
  readonly #documentFrequency = new Map<string, number>();
  readonly #averageLength: number;

  constructor(documents: ReadonlyMap<string, string>) {
    let total = 0;
    for (const [id, text] of documents) {
      const counts = new Map<string, number>();
      const tokens = contentTokens(text);
      for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
      for (const term of counts.keys())
        this.#documentFrequency.set(term, (this.#documentFrequency.get(term) ?? 0) + 1);
      this.#documents.set(id, counts);
      this.#lengths.set(id, tokens.length);
      total += tokens.length;
    }
    this.#averageLength = this.#documents.size > 0 ? Math.max(1, total / this.#documents.size) : 1;
  }

  get size(): number {
    return this.#documents.size;
  }

  /** Every document with at least one query word, most relevant first; ties keep insertion order. */
  search(query: string): Bm25Hit[] {
    const terms = [...new Set(contentTokens(query))];
    const ceiling = terms.reduce((sum, term) => sum + this.#idf(term), 0);
    if (ceiling === 0) return [];
    const hits: Bm25Hit[] = [];
    for (const [id, counts] of this.#documents) {
      const length = this.#lengths.get(id) ?? 0;
      let score = 0;
      const matched: string[] = [];
      for (const term of terms) {
        const tf = counts.get(term);
        if (tf === undefined) continue;
        matched.push(term);
        const norm = K1 * (1 - B + (B * length) / this.#averageLength);
        score += (this.#idf(term) * (tf * (K1 + 1))) / (tf + norm);
      }
      if (matched.length > 0) hits.push({ id, relevance: Math.min(1, score / ceiling), score, matched });
    }
    return hits.sort((a, b) => b.score - a.score);
  }

  /** BM25's inverse document frequency (the non-negative form). */
  #idf(term: string): number {
    const df = this.#documentFrequency.get(term) ?? 0;
    return Math.log(1 + (this.#documents.size - df + 0.5) / (df + 0.5));
  }
}
