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
   * Least relevance, in [0, 1], for a tool to be kept as a candidate (default 0.3). Set it low: a tool
   * left out here is never seen by the model.
   */
  recallThreshold?: number;
  /**
   * Least relevance, in [0, 1], of the best candidate for the router to trust the request to the model
   * (default 0.4). Set it high: below it the request is split, then clarified, then declined. Must be
   * at least `recallThreshold`.
   */
  acceptThreshold?: number;
  /** Most candidates offered to the model (default 5). */
  topK?: number;
  /** Rules for the obvious intents, tried in order before recall. */
  rules?: readonly ToolRule[];
  /**
   * Embedding recall, on top of lexical recall: a tool's relevance is the higher of its BM25 relevance
   * and the cosine similarity of the request's and its description's embeddings. Default: lexical only.
   */
  embedder?: Embedder;
  logger?: Logger;
}

/** The defaults of {@link ToolRouterOptions}, tuned on `evals/routing` with the lexical recall. */
export const ROUTER_DEFAULTS = { recallThreshold: 0.3, acceptThreshold: 0.4, topK: 5 } as const;

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Checks router options; throws `INVALID_OPTIONS` naming every problem and how to fix it. */
export function checkRouterOptions({
  recallThreshold,
  acceptThreshold,
  topK,
  rules,
  embedder,
}: Required<Pick<ToolRouterOptions, 'recallThreshold' | 'acceptThreshold' | 'topK' | 'rules'>> &
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
    problems.push('embedder must have an embed(texts) method (e.g. an OpenAIEmbedder)');
  if (problems.length > 0) {
    throw new AgentError('INVALID_OPTIONS', {
      message: `ToolRouter options are not valid: ${problems.join('; ')}.`,
      details: { problems },
    });
  }
}
