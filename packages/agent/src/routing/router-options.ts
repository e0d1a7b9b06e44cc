import { AgentError } from '../errors.ts';
import type { Logger } from '../observe/logger.ts';
import type { Embedder } from './embedder.ts';

/** An operator's rule for an obvious intent: when `pattern` matches the request, offer `tools` only. */
export interface ToolRule {
  /** Names the rule in decision records, e.g. `refund-words`. */
  name: string;
  pattern: RegExp;
  /** The tools offered when it matches; those the agent does not have (yet) are skipped. */
  tools: readonly string[];
}

/** Options of `ToolRouter`. */
export interface ToolRouterOptions {
  /**
   * Least relevance, in [0, 1], for a tool to be kept as a candidate (default 0.3 with lexical recall,
   * 0.35 with `embedding` or `hybrid`). Set it low: a tool
   * left out here is never seen by the model.
   */
  recallThreshold?: number;
  /**
   * Least relevance, in [0, 1], of the best candidate for the router to trust the request to the model
   * (default 0.4 with lexical recall, 0.45 with `embedding` or `hybrid`). Set it high: below it the request is split, then clarified, then declined. Must be
   * at least `recallThreshold`.
   */
  acceptThreshold?: number;
  /** Most candidates offered to the model (default 5). */
  topK?: number;
  /** Rules for the obvious intents, tried in order before recall. */
  rules?: readonly ToolRule[];
  /**
   * Embedding recall, with lexical recall or instead of it (see `recall`): the cosine similarity of
   * the request's and each tool description's embeddings, on the scale the embedder's `similarity`
   * states. Default: lexical only. `LocalEmbedder` (`@switchboard/embeddings-local`) runs in the
   * process; `OpenAIEmbedder` (`@switchboard/openai`) calls an `/embeddings` endpoint.
   */
  embedder?: Embedder;
  /**
   * How a tool's relevance is scored: `lexical` (BM25 only), `embedding` (embeddings only) or `hybrid`
   * (`embeddingWeight` × embedding similarity + the rest × BM25 relevance). Default `hybrid` with an
   * `embedder`, `lexical` without; `embedding` and `hybrid` need an `embedder`.
   */
  recall?: RecallMode;
  /** The embedding similarity's share of a hybrid score, in [0, 1] (default 0.6). */
  embeddingWeight?: number;
  logger?: Logger;
}

/** How the router scores a tool's relevance to a request; see {@link ToolRouterOptions.recall}. */
export type RecallMode = 'lexical' | 'embedding' | 'hybrid';

const RECALL_MODES: readonly string[] = ['lexical', 'embedding', 'hybrid'] satisfies RecallMode[];

/**
 * The defaults of {@link ToolRouterOptions}, tuned on `evals/routing/requests.yaml` (the embedding ones
 * with `LocalEmbedder`); `recallThreshold` and `acceptThreshold` are the lexical recall's,
 * `embeddingRecallThreshold` and `embeddingAcceptThreshold` the defaults with `embedding` or `hybrid`.
 */
export const ROUTER_DEFAULTS = {
  recallThreshold: 0.3,
  acceptThreshold: 0.4,
  embeddingRecallThreshold: 0.35,
  embeddingAcceptThreshold: 0.45,
  topK: 5,
  embeddingWeight: 0.6,
} as const;

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Checks router options; throws `INVALID_OPTIONS` naming every problem and how to fix it. */
export function checkRouterOptions({
  recallThreshold,
  acceptThreshold,
  topK,
  rules,
  embedder,
  recall,
  embeddingWeight,
}: Required<
  Pick<
    ToolRouterOptions,
    'recallThreshold' | 'acceptThreshold' | 'topK' | 'rules' | 'recall' | 'embeddingWeight'
  >
> &
  Pick<ToolRouterOptions, 'embedder'>): void {
  const problems: string[] = [];
  const inUnit = (value: number) => Number.isFinite(value) && value >= 0 && value <= 1;
  if (!inUnit(recallThreshold))
    problems.push(`recallThreshold ${recallThreshold} must be a number from 0 to 1 (e.g. 0.3)`);
  if (!inUnit(acceptThreshold))
    problems.push(`acceptThreshold ${acceptThreshold} must be a number from 0 to 1 (e.g. 0.4)`);
  if (inUnit(recallThreshold) && inUnit(acceptThreshold) && acceptThreshold < recallThreshold)
    problems.push(
      `acceptThreshold ${acceptThreshold} is below recallThreshold ${recallThreshold}: keep candidates generously (low recall threshold) and trust a choice sparingly (high acceptance threshold)`,
    );
  if (!Number.isInteger(topK) || topK < 1 || topK > 128)
    problems.push(`topK ${topK} must be a whole number from 1 to 128 (e.g. 5)`);
  if (!Array.isArray(rules)) problems.push('rules must be an array of { name, pattern, tools }');
  else
    rules.forEach((rule, index) => {
      const label = `rules[${index}]${rule?.name ? ` ("${rule.name}")` : ''}`;
      if (!rule?.name?.trim()) problems.push(`${label} has no name: name it for the decision records`);
      if (!(rule?.pattern instanceof RegExp)) problems.push(`${label}.pattern must be a RegExp`);
      else if (rule.pattern.global || rule.pattern.sticky)
        problems.push(
          `${label}.pattern must not use the g or y flag (test() would carry state between requests)`,
        );
      if (!Array.isArray(rule?.tools) || rule.tools.length === 0)
        problems.push(`${label}.tools must name at least one tool`);
      else
        for (const tool of rule.tools)
          if (typeof tool !== 'string' || !TOOL_NAME.test(tool))
            problems.push(`${label}.tools has "${String(tool)}", which is not a tool name`);
    });
  if (embedder !== undefined && typeof embedder?.embed !== 'function')
    problems.push('embedder must have an embed(texts) method (e.g. a LocalEmbedder or an OpenAIEmbedder)');
  if (!RECALL_MODES.includes(recall))
    problems.push(`recall "${String(recall)}" must be one of ${RECALL_MODES.join(', ')}`);
  else if (recall !== 'lexical' && embedder === undefined)
    problems.push(
      `recall "${recall}" needs an embedder (e.g. new LocalEmbedder() from @switchboard/embeddings-local)`,
    );
  if (!inUnit(embeddingWeight))
    problems.push(`embeddingWeight ${embeddingWeight} must be a number from 0 to 1 (e.g. 0.5)`);
  const similarity = embedder?.similarity;
  if (
    similarity !== undefined &&
    !(
      Number.isFinite(similarity.unrelated) &&
      Number.isFinite(similarity.related) &&
      similarity.related > similarity.unrelated
    )
  )
    problems.push(
      `embedder.similarity must have unrelated below related (e.g. { unrelated: 0.1, related: 0.6 }), not ${JSON.stringify(similarity)}`,
    );
  if (problems.length > 0) {
    throw new AgentError('INVALID_OPTIONS', {
      message: `ToolRouter options are not valid: ${problems.join('; ')}.`,
      details: { problems },
    });
  }
}
