import {
  type ChatModel,
  defineAgent,
  estimateTextTokens,
  isAgentError,
  type RecallMode,
  type RoutingOutcome,
  runAgent,
  silentLogger,
  ToolRouter,
  type ToolRouterOptions,
} from '@switchboard/agent';
import { expectedTools, type LabelledRequest, type RoutingCatalogue } from './routing-catalogue.ts';

/** What happened to one labelled request in one arm (with or without the router). */
export interface RoutedRequestResult {
  text: string;
  expected: string[];
  /** The tools the model called on its first step (none when the run stopped before the model). */
  called: string[];
  /** A tool was called that the request does not expect (any tool, for clarify and unsupported). */
  wrongTool: boolean;
  /** The router's outcome (with the router only). */
  outcome?: RoutingOutcome;
  /** Every expected tool was among the router's top-k (with the router, for requests that expect tools). */
  recalled?: boolean;
  /** Prompt tokens of each model call, and of the tool declarations in it. */
  promptTokens: number[];
  toolTokens: number[];
  /**
   * The model endpoint rejected the request (`MODEL_BAD_REQUEST`), e.g. more tools than it takes (the
   * OpenAI API takes at most 128): the request counts in no rate of this arm.
   */
  modelError?: string;
}

/** The figures of one arm over every request. */
export interface RoutingArmFigures {
  /** Share of requests where a tool the request does not expect was called. */
  wrongToolRate: number;
  /** Share of requests that expect tools where exactly those tools were called. */
  rightToolRate: number;
  /** Share of requests answered with a clarifying question instead of a tool. */
  clarificationRate: number;
  /** Mean prompt tokens per model call (messages and tool declarations), and of the declarations alone. */
  promptTokensPerStep: number;
  toolTokensPerStep: number;
  modelSteps: number;
  /** Requests the model endpoint rejected; the rates above leave them out. */
  modelErrors: number;
}

/** The routing evaluation's report. */
export interface RoutingReport {
  catalogue: {
    tools: number;
    /** The file of labelled requests run (`requests.yaml`, `holdout.yaml`). */
    requestsFile: string;
    requests: number;
    expectingTools: number;
    clarify: number;
    unsupported: number;
  };
  router: {
    recallThreshold: number;
    acceptThreshold: number;
    topK: number;
    /** How relevance was scored: BM25 only, embeddings only, or both mixed. */
    recall: RecallMode;
    /** The embedding similarity's share of a hybrid score. */
    embeddingWeight?: number;
    embeddingModel?: string;
  };
  model: string;
  /** Share of requests expecting tools whose tools were all in the router's top k. */
  recallAtK: number;
  /** Of requests labelled `clarify`, the share the router clarified; of `unsupported`, the share it declined. */
  clarifiedWhenAmbiguous: number;
  declinedWhenUnsupported: number;
  withRouter: RoutingArmFigures;
  withoutRouter: RoutingArmFigures;
  /** 1 − (prompt tokens per step with the router ÷ without). */
  promptTokenReduction: number;
  results: { withRouter: RoutedRequestResult[]; withoutRouter: RoutedRequestResult[] };
}

/** Options of {@link runRoutingEval}. */
export interface RunRoutingEvalOptions {
  catalogue: RoutingCatalogue;
  /** Makes the model that chooses among the tools offered, one per run (the offline model in `switchboard eval`). */
  model: () => ChatModel;
  router?: Omit<ToolRouterOptions, 'logger'>;
}

const INSTRUCTIONS = 'You are the team’s agent. Use the tools to serve the user; never guess.';
const share = (count: number, of: number) => (of === 0 ? 0 : count / of);
const mean = (values: readonly number[]) =>
  share(
    values.reduce((a, b) => a + b, 0),
    values.length,
  );

/**
 * Runs every labelled request through the agent loop twice with the same model: once offering every
 * tool, once through a {@link ToolRouter}. Reads which tools the model called on its first step, the
 * router's decision, and the prompt tokens of each model call.
 */
export async function runRoutingEval({
  catalogue,
  model,
  router = {},
}: RunRoutingEvalOptions): Promise<RoutingReport> {
  const agent = defineAgent({ name: 'catalogue', instructions: INSTRUCTIONS, tools: catalogue.tools });
  const toolRouter = new ToolRouter(router);
  const tokensOf = new Map(
    agent.toolset
      .declarations()
      .map((declaration) => [
        declaration.function.name,
        estimateTextTokens(JSON.stringify(declaration.function)),
      ]),
  );
  const run = async (request: LabelledRequest, routed: boolean): Promise<RoutedRequestResult> => {
    const expected = expectedTools(request.expect);
    let result: Awaited<ReturnType<typeof runAgent>>;
    try {
      result = await runAgent({
        agent,
        model: model(),
        input: request.text,
        logger: silentLogger(),
        maxSteps: 3,
        ...(routed ? { router: toolRouter } : {}),
      });
    } catch (error) {
      // One request the endpoint will not take is a finding; a key refused or an endpoint down stops the run.
      if (!isAgentError(error, 'MODEL_BAD_REQUEST')) throw error;
      const modelError = 'MODEL_BAD_REQUEST: the model endpoint rejected the request';
      return {
        text: request.text,
        expected,
        called: [],
        wrongTool: false,
        promptTokens: [],
        toolTokens: [],
        modelError,
      };
    }
    const called = [...new Set(result.toolCalls.filter((call) => call.step === 1).map((call) => call.tool))];
    const offered = result.routing
      ? result.routing.candidates.map((candidate) => candidate.tool)
      : agent.toolset.names;
    const offeredTokens = offered.reduce((sum, name) => sum + (tokensOf.get(name) ?? 0), 0);
    const ranked = new Set(
      [...(result.routing?.ranked ?? []), ...(result.routing?.candidates ?? [])].map((c) => c.tool),
    );
    return {
      text: request.text,
      expected,
      called,
      wrongTool: called.some((tool) => !expected.includes(tool)),
      ...(result.routing ? { outcome: result.routing.outcome } : {}),
      ...(result.routing && expected.length > 0
        ? { recalled: expected.every((tool) => ranked.has(tool)) }
        : {}),
      promptTokens: result.steps.map((step) => step.usage.promptTokens),
      toolTokens: result.steps.map(() => offeredTokens),
    };
  };
  const withRouter: RoutedRequestResult[] = [];
  const withoutRouter: RoutedRequestResult[] = [];
  for (const request of catalogue.requests) {
    withRouter.push(await run(request, true));
    withoutRouter.push(await run(request, false));
  }
  const expecting = withRouter.filter((result) => result.expected.length > 0);
  const labelled = (label: 'clarify' | 'unsupported') =>
    catalogue.requests.flatMap((request, index) => (request.expect === label ? [withRouter[index]] : []));
  const clarifyCases = labelled('clarify');
  const unsupportedCases = labelled('unsupported');
  const withFigures = figures(withRouter);
  const withoutFigures = figures(withoutRouter);
  return {
    catalogue: {
      tools: catalogue.tools.length,
      requestsFile: catalogue.requestsFile,
      requests: catalogue.requests.length,
      expectingTools: expecting.length,
      clarify: clarifyCases.length,
      unsupported: unsupportedCases.length,
    },
    router: {
      recallThreshold: toolRouter.recallThreshold,
      acceptThreshold: toolRouter.acceptThreshold,
      topK: toolRouter.topK,
      recall: toolRouter.recall,
      ...(toolRouter.recall === 'hybrid' ? { embeddingWeight: toolRouter.embeddingWeight } : {}),
      ...(router.embedder && toolRouter.recall !== 'lexical'
        ? { embeddingModel: router.embedder.modelId }
        : {}),
    },
    model: model().modelId,
    recallAtK: share(expecting.filter((result) => result.recalled).length, expecting.length),
    clarifiedWhenAmbiguous: share(
      clarifyCases.filter((result) => result?.outcome === 'clarify').length,
      clarifyCases.length,
    ),
    declinedWhenUnsupported: share(
      unsupportedCases.filter((result) => result?.outcome === 'unsupported').length,
      unsupportedCases.length,
    ),
    withRouter: withFigures,
    withoutRouter: withoutFigures,
    promptTokenReduction: 1 - share(withFigures.promptTokensPerStep, withoutFigures.promptTokensPerStep),
    results: { withRouter, withoutRouter },
  };
}

function figures(all: readonly RoutedRequestResult[]): RoutingArmFigures {
  const results = all.filter((result) => result.modelError === undefined);
  const expecting = results.filter((result) => result.expected.length > 0);
  const exact = (result: RoutedRequestResult) =>
    result.called.length === result.expected.length &&
    result.expected.every((tool) => result.called.includes(tool));
  return {
    wrongToolRate: share(results.filter((result) => result.wrongTool).length, results.length),
    rightToolRate: share(expecting.filter(exact).length, expecting.length),
    clarificationRate: share(results.filter((result) => result.outcome === 'clarify').length, results.length),
    promptTokensPerStep: mean(results.flatMap((result) => result.promptTokens)),
    toolTokensPerStep: mean(results.flatMap((result) => result.toolTokens)),
    modelSteps: results.reduce((sum, result) => sum + result.promptTokens.length, 0),
    modelErrors: all.length - results.length,
  };
}
