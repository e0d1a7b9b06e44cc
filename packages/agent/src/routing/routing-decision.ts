import type { RecallMode } from './router-options.ts';

/** Where a candidate came from: an operator's rule, lexical recall or embedding recall. */
export type CandidateSource = 'rule' | 'lexical' | 'embedding';

/** A tool the router considered for a request, with its relevance in [0, 1]. */
export interface RouteCandidate {
  tool: string;
  score: number;
  source: CandidateSource;
}

/**
 * What the router decided for a request:
 * - `routed`: the best candidate reached the acceptance threshold; the model chooses among `candidates`.
 * - `split`: the whole request did not, but each of its parts did; `candidates` joins the parts' own.
 * - `clarify`: some tools came close but none is trusted, or the request names nothing to go on; the
 *   agent asks which one is meant (`candidates` are the tools it asks between).
 * - `unsupported`: no tool came close; the agent says plainly what it cannot do.
 */
export type RoutingOutcome = 'routed' | 'split' | 'clarify' | 'unsupported';

/** The record of one routing decision: what was considered, against which thresholds, and the outcome. */
export interface RoutingDecision {
  outcome: RoutingOutcome;
  /** The request text routed. */
  request: string;
  /** The tools offered to the model, best first (for `clarify`, those it asks between; else empty). */
  candidates: RouteCandidate[];
  /** The best-ranked tools whatever the thresholds (at most `topK`): what recall@k is measured on. */
  ranked: RouteCandidate[];
  /** The rule that matched, when one did. */
  rule?: string;
  /** The parts routed on their own (for `split`, and for the attempt before `clarify`). */
  parts?: { text: string; best?: RouteCandidate }[];
  thresholds: { recall: number; accept: number; topK: number };
  /** How relevance was scored: BM25 only, embeddings only, or both mixed. */
  recall: RecallMode;
  /** The embedder's model, with embedding or hybrid recall. */
  embeddingModel?: string;
  /**
   * How many tools scored within 10% of the best (lexically): `topK` or more means the request does not
   * say which tool it is for, and it is not trusted however high the best scores.
   */
  ties?: number;
  /** The index the decision was made on: how many tools it held. */
  indexedTools: number;
}
