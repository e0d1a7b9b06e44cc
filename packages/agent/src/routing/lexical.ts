/**
 * `@switchboard/agent/lexical`: the stemmed words the tool router reads in requests and tool
 * descriptions (identifier splitting, stop words, a light stemmer, TF-IDF), for model adapters that
 * read text the same way (the offline planner in `@switchboard/offline-model`).
 */

/**
 * Words that carry no intent: function words, courtesy, and the boilerplate of tool descriptions
 * ("the user asks ..."), plus generic verbs that would otherwise tie every "check/get/find" together.
 */
const STOP_WORDS = new Set(
  `a about above after again all also am an and any are as at be been before being below between both but
  by can could did do does doing done for from further had has have having he her here hers him his how i
  if in into is it its itself just let me more most my myself no nor not now of off on once only or other
  our ours out over own same she should so some such than that the their them then there these they this
  those through to too under until up very was we were what when where which while who whom why will with
  would you your yours yourself hi hello hey please thank thanks ok okay kind regards dear
  user users ask asks asked asking want wants wanted need needs like know tell say says said use used using
  get gets got check checks look looks find finds fetch show give see make makes call calls tool tools help
  something anything thing things one way lot really right still just already whether`.split(/\s+/),
);

/** Splits camelCase, snake_case and kebab-case into words: `getOrderId` → `get order id`. */
export function splitIdentifier(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ');
}

/** A light English stemmer: plural, -ing, -ed, -ly, -ment, final -e and doubled consonants. */
export function stem(word: string): string {
  let w = word.toLowerCase().replace(/'s$/, '');
  if (w.length <= 3) return w;
  const strip = (suffix: string, replacement = '', minStem = 3): boolean => {
    if (!w.endsWith(suffix) || w.length - suffix.length < minStem) return false;
    w = w.slice(0, w.length - suffix.length) + replacement;
    return true;
  };
  if (!strip('ies', 'y') && !strip('ied', 'y') && !/(ss|us|is)$/.test(w)) strip('s');
  if (!strip('ing') && !strip('ed') && !strip('ly', '', 4) && !strip('ment', '', 4)) strip('al', '', 4);
  if (w.length > 5 && w.endsWith('ery')) w = w.slice(0, -1);
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  if (/([b-df-hj-km-np-rtv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
  return w;
}

/** The content words of a text, stemmed; identifiers and numbers (anything with a digit) are left out. */
export function contentTokens(text: string): string[] {
  const words =
    splitIdentifier(text)
      .toLowerCase()
      .match(/[\p{L}\p{N}']+/gu) ?? [];
  return words
    .map((word) => word.replace(/^'+|'+$/g, '').replace(/'(s|t|re|ve|ll|d|m)$/, ''))
    .filter((word) => word.length > 1 && !/\d/.test(word) && !STOP_WORDS.has(word))
    .map(stem);
}

/** A weighted bag of stemmed words. */
export type TermVector = Map<string, number>;

/** Term frequencies of a token list. */
export function termCounts(tokens: readonly string[]): TermVector {
  const counts: TermVector = new Map();
  for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}

/**
 * TF-IDF over a small set of documents (the tool descriptions), compared by cosine similarity.
 * Query words unknown to every document keep the highest weight, so an off-topic request scores low.
 */
export class TfIdfIndex {
  readonly #documentFrequency = new Map<string, number>();
  readonly #size: number;

  constructor(documents: readonly TermVector[]) {
    this.#size = documents.length;
    for (const document of documents) {
      for (const term of document.keys()) {
        this.#documentFrequency.set(term, (this.#documentFrequency.get(term) ?? 0) + 1);
      }
    }
  }

  /** Inverse document frequency, smoothed so a word found in every document still counts a little. */
  idf(term: string): number {
    const df = this.#documentFrequency.get(term) ?? 0;
    return Math.log(1 + (this.#size + 1) / (df + 1));
  }

  /** Cosine similarity in [0, 1] of a query and a document, both as term counts. */
  similarity(query: TermVector, document: TermVector): number {
    let dot = 0;
    let queryNorm = 0;
    let documentNorm = 0;
    for (const [term, count] of document) documentNorm += this.#weight(term, count) ** 2;
    for (const [term, count] of query) {
      const weight = this.#weight(term, count);
      queryNorm += weight ** 2;
      const inDocument = document.get(term);
      if (inDocument !== undefined) dot += weight * this.#weight(term, inDocument);
    }
    if (dot === 0) return 0;
    return dot / Math.sqrt(queryNorm * documentNorm);
  }

  /** The query terms a document contains. */
  shared(query: TermVector, document: TermVector): string[] {
    return [...query.keys()].filter((term) => document.has(term));
  }

  #weight(term: string, count: number): number {
    return (1 + Math.log(count)) * this.idf(term);
  }
}
