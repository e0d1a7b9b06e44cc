import { AgentError } from '../errors.ts';
import { type Logger, silentLogger } from '../observe/logger.ts';
import type { Toolset } from '../tools/toolset.ts';
import { Bm25Index } from './bm25-index.ts';
import { calibratedSimilarity, cosine, type Embedder } from './embedder.ts';
import { contentTokens } from './lexical.ts';
import {
  checkRouterOptions,
  type RecallMode,
  ROUTER_DEFAULTS,
  type ToolRouterOptions,
  type ToolRule,
} from './router-options.ts';
import type { RouteCandidate, RoutingDecision } from './routing-decision.ts';
import { splitRequest } from './split-request.ts';

/** What `ToolRouter.route` routes. */
export interface RouteRequest {
  /** The user's request. */
  request: string;
  /** The user's message before it, tried with it when the request alone is not enough (an answer to a question). */
  previous?: string;
  toolset: Toolset;
  /** The tools the agent may offer (default: all of the toolset). */
  permitted?: ReadonlySet<string>;
  signal?: AbortSignal;
}

/** The index of one set of tools: rebuilt when the set changes. */
interface ToolIndex {
  signature: string;
  names: string[];
  lexical: Bm25Index;
  /** Each tool's document, by name (what BM25 reads). */
  documents: Map<string, string>;
  /** Each tool's text for the embedder, by name: its name in words, summary and "Use when" text. */
  embedded: Map<string, string>;
}

/** The vectors of one decision's texts, each text embedded once however often the decision reads it. */
type QueryVectors = Map<string, Promise<number[]>>;

/**
 * Narrows an agent's tools to the few a request needs before the model chooses: operator rules first
 * for the obvious intents, then recall over the tools' descriptions (BM25 over name, summary and "Use
 * when" text, offline; with an {@link Embedder}, hybrid by default: the embeddings' similarity and BM25
 * mixed by `embeddingWeight`, or the embeddings alone with `recall: 'embedding'`), keeping at most `topK`
 * candidates above the recall threshold. The best must reach the acceptance threshold to be trusted;
 * below it the request is split into its parts and each routed again, and failing that the decision is
 * `clarify` (some tools came close) or `unsupported` (none did). The index follows the toolset: a tool
 * added at runtime, or a new toolset, is indexed on the next request.
 *
 * @example
 * const router = new ToolRouter({ recallThreshold: 0.3, acceptThreshold: 0.4, topK: 5 });
 * await runAgent({ agent, model, input: 'Where is my parcel?', router });
 * // Recall by meaning too, on a model in the process (`@switchboard/embeddings-local`):
 * const hybrid = new ToolRouter({ embedder: new LocalEmbedder() });
 */
export class ToolRouter {
  readonly recallThreshold: number;
  readonly acceptThreshold: number;
  readonly topK: number;
  readonly recall: RecallMode;
  readonly embeddingWeight: number;
  readonly #rules: readonly ToolRule[];
  readonly #embedder: Embedder | undefined;
  readonly #logger: Logger;
  readonly #indexes = new WeakMap<Toolset, ToolIndex>();
  /** Embeddings of tool documents, by document text: a rebuilt index embeds only what is new. */
  readonly #vectors = new Map<string, number[]>();
  /** Tool documents being embedded, by text, so decisions at the same time embed each once. */
  readonly #pending = new Map<string, Promise<void>>();

  constructor({
    embedder,
    recall = embedder ? 'hybrid' : 'lexical',
    recallThreshold = recall === 'lexical'
      ? ROUTER_DEFAULTS.recallThreshold
      : ROUTER_DEFAULTS.embeddingRecallThreshold,
    acceptThreshold = recall === 'lexical'
      ? ROUTER_DEFAULTS.acceptThreshold
      : ROUTER_DEFAULTS.embeddingAcceptThreshold,
    topK = ROUTER_DEFAULTS.topK,
    rules = [],
    embeddingWeight = ROUTER_DEFAULTS.embeddingWeight,
    logger = silentLogger(),
  }: ToolRouterOptions = {}) {
    checkRouterOptions({ recallThreshold, acceptThreshold, topK, rules, embedder, recall, embeddingWeight });
    this.recallThreshold = recallThreshold;
    this.acceptThreshold = acceptThreshold;
    this.topK = topK;
    this.recall = recall;
    this.embeddingWeight = embeddingWeight;
    this.#rules = [...rules];
    this.#embedder = embedder;
    this.#logger = logger;
  }

  /** Decides which tools to offer for a request; see the class for how. */
  async route({ request, previous, toolset, permitted, signal }: RouteRequest): Promise<RoutingDecision> {
    const index = this.#index(toolset, permitted);
    const common = {
      request,
      thresholds: { recall: this.recallThreshold, accept: this.acceptThreshold, topK: this.topK },
      recall: this.recall,
      ...(this.#embedder && this.recall !== 'lexical' ? { embeddingModel: this.#embedder.modelId } : {}),
      indexedTools: index.names.length,
    };
    for (const rule of this.#rules) {
      if (!rule.pattern.test(request)) continue;
      const tools = rule.tools.filter((tool) => index.documents.has(tool));
      if (tools.length === 0) {
        this.#logger.warn(
          { rule: rule.name, tools: rule.tools },
          'routing rule matched, but the agent has none of its tools',
        );
        continue;
      }
      const candidates = tools.map((tool): RouteCandidate => ({ tool, score: 1, source: 'rule' }));
      return { ...common, outcome: 'routed', candidates, ranked: candidates, rule: rule.name };
    }
    const queries: QueryVectors = new Map();
    const whole = await this.#recall(index, request, queries, signal);
    const { ranked, kept, ties } = whole;
    const base = { ...common, ties };
    if (this.#accepted(whole)) return { ...base, outcome: 'routed', candidates: kept, ranked };
    if (previous?.trim()) {
      const joined = await this.#recall(index, `${previous}\n${request}`, queries, signal);
      if (this.#accepted(joined)) return { ...base, outcome: 'routed', candidates: joined.kept, ranked };
    }
    const parts = await Promise.all(
      splitRequest(request).map(async (text) => ({
        text,
        ...(await this.#recall(index, text, queries, signal)),
      })),
    );
    const record = parts.map(({ text, kept: [best] }) => ({ text, ...(best ? { best } : {}) }));
    if (parts.length > 0 && parts.every((part) => this.#accepted(part))) {
      const candidates = uniqueTools(parts.flatMap((part) => part.kept));
      return { ...base, outcome: 'split', candidates, ranked, parts: record };
    }
    // A request with no content word at all ("I need help with something") is vague, not out of reach.
    const outcome = kept.length > 0 || !hasContent(request) ? 'clarify' : 'unsupported';
    return { ...base, outcome, candidates: kept, ranked, ...(record.length > 0 ? { parts: record } : {}) };
  }

  /**
   * Trusted when the best candidate reaches the acceptance threshold and fewer than `topK` tools tie
   * with it: a request that as many tools match about equally ("I want to cancel") does not say which
   * one it is for, and cutting the list at k would be a guess.
   */
  #accepted({ kept, ties }: Recall): boolean {
    return (kept[0]?.score ?? 0) >= this.acceptThreshold && ties < this.topK;
  }

  /** The `topK` most relevant tools (best first), those of them above the recall threshold, and the ties. */
  async #recall(
    index: ToolIndex,
    text: string,
    queries: QueryVectors,
    signal: AbortSignal | undefined,
  ): Promise<Recall> {
    const lexical = new Map<string, number>();
    // Lexical hits come best first (by raw BM25): that order breaks ties of relevance capped at 1.
    const order = new Map<string, number>();
    const hits = index.lexical.search(text);
    const top = hits[0]?.score ?? 0;
    for (const hit of hits) {
      order.set(hit.id, order.size);
      lexical.set(hit.id, round(hit.relevance));
    }
    for (const name of index.names) if (!order.has(name)) order.set(name, order.size);
    const semantic =
      this.recall === 'lexical' ? undefined : await this.#similarities(index, text, queries, signal);
    const weight = this.recall === 'embedding' ? 1 : this.recall === 'hybrid' ? this.embeddingWeight : 0;
    const scores = index.names.map((tool): RouteCandidate => {
      const lexicalPart = (1 - weight) * (lexical.get(tool) ?? 0);
      const embeddingPart = weight * (semantic?.get(tool) ?? 0);
      const source = embeddingPart > lexicalPart ? 'embedding' : 'lexical';
      return { tool, score: round(lexicalPart + embeddingPart), source };
    });
    const sorted = scores
      .filter((candidate) => candidate.score > 0)
      .sort((a, b) => b.score - a.score || (order.get(a.tool) ?? 0) - (order.get(b.tool) ?? 0));
    const ranked = sorted.slice(0, this.topK);
    const kept = ranked.filter((candidate) => candidate.score >= this.recallThreshold);
    const best = sorted[0]?.score ?? 0;
    // A request many tools match equally in words is vague however its embedding reads.
    const lexicalTies = this.recall === 'embedding' ? 0 : hits.filter((hit) => hit.score >= TIE * top).length;
    const scoreTies = this.recall === 'lexical' ? 0 : sorted.filter((c) => c.score >= TIE * best).length;
    const ties = Math.max(lexicalTies, scoreTies);
    return { ranked, kept, ties };
  }

  /** Each tool's embedding similarity to `text`, on the [0, 1] scale of the embedder's `similarity`. */
  async #similarities(
    index: ToolIndex,
    text: string,
    queries: QueryVectors,
    signal: AbortSignal | undefined,
  ): Promise<Map<string, number>> {
    const embedder = this.#embedder as Embedder;
    let query = queries.get(text);
    if (!query) {
      query = this.#embed(index, text, signal);
      queries.set(text, query);
    }
    const vector = await query;
    return new Map(
      index.names.map((name) => [
        name,
        calibratedSimilarity(
          cosine(vector, this.#vectors.get(index.embedded.get(name) ?? '') ?? []),
          embedder.similarity,
        ),
      ]),
    );
  }

  /**
   * Embeds `text`, with the tool texts no decision has embedded or is embedding yet in the same call;
   * waits for those another decision is embedding. Answers the text's vector.
   */
  async #embed(index: ToolIndex, text: string, signal: AbortSignal | undefined): Promise<number[]> {
    const documents = [...new Set(index.embedded.values())];
    const missing = documents.filter(
      (document) => !this.#vectors.has(document) && !this.#pending.has(document),
    );
    const embedded = this.#embedChecked([text, ...missing], signal).then(([query, ...fresh]) => {
      for (const [i, document] of missing.entries()) this.#vectors.set(document, fresh[i] ?? []);
      return query ?? [];
    });
    const settled = embedded.then(
      () => undefined,
      () => undefined,
    );
    for (const document of missing) this.#pending.set(document, settled);
    void settled.then(() => {
      for (const document of missing) this.#pending.delete(document);
    });
    const query = await embedded;
    await Promise.all(documents.flatMap((document) => this.#pending.get(document) ?? []));
    // What another decision failed to embed is embedded here.
    const failed = documents.filter((document) => !this.#vectors.has(document));
    if (failed.length > 0) {
      const vectors = await this.#embedChecked(failed, signal);
      for (const [i, document] of failed.entries()) this.#vectors.set(document, vectors[i] ?? []);
    }
    return query;
  }

  /** The embedder's vectors for `texts`, one each, or `MODEL_BAD_RESPONSE`. */
  async #embedChecked(texts: string[], signal: AbortSignal | undefined): Promise<number[][]> {
    const embedder = this.#embedder as Embedder;
    const vectors = await embedder.embed(texts, signal ? { signal } : {});
    if (vectors.length !== texts.length)
      throw new AgentError('MODEL_BAD_RESPONSE', {
        message: `The embedder ${embedder.modelId} returned ${vectors.length} vectors for ${texts.length} texts.`,
      });
    return vectors;
  }

  /** The toolset's index, rebuilt when its permitted tools or their descriptions changed. */
  #index(toolset: Toolset, permitted: ReadonlySet<string> | undefined): ToolIndex {
    const tools = toolset.list().filter((tool) => !permitted || permitted.has(tool.name));
    const documents = new Map(
      tools.map((tool) => [tool.name, `${tool.name} ${tool.name} ${tool.summary} ${tool.whenToUse}`]),
    );
    const signature = [...documents.values()].join('\u0000');
    const cached = this.#indexes.get(toolset);
    if (cached?.signature === signature) return cached;
    const embedded = new Map(
      tools.map((tool) => [
        tool.name,
        `${tool.name.replaceAll(/[_-]+/g, ' ')}: ${tool.summary} ${tool.whenToUse}`,
      ]),
    );
    const index = {
      signature,
      names: [...documents.keys()],
      lexical: new Bm25Index(documents),
      documents,
      embedded,
    };
    this.#indexes.set(toolset, index);
    this.#logger.debug(
      { tools: index.names.length, rebuilt: cached !== undefined },
      'tool routing index built',
    );
    return index;
  }
}

/** A tool whose lexical score is at least this share of the best one's ties with it. */
const TIE = 0.9;

/** What recall found for a text. */
interface Recall {
  ranked: RouteCandidate[];
  kept: RouteCandidate[];
  /** How many tools scored within 10% of the best (by raw BM25 with lexical recall only). */
  ties: number;
}

const hasContent = (text: string) => contentTokens(text).length > 0;

const round = (score: number) => Math.round(score * 1000) / 1000;

function uniqueTools(candidates: readonly RouteCandidate[]): RouteCandidate[] {
  const seen = new Set<string>();
  return candidates.filter((candidate) => !seen.has(candidate.tool) && seen.add(candidate.tool));
}
