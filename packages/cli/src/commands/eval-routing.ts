import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Embedder, isAgentError, type RecallMode } from '@switchboard/agent';
import { LocalEmbedder } from '@switchboard/embeddings-local';
import {
  formatRoutingReport,
  isEvaluationError,
  loadRoutingCatalogue,
  type ModelSource,
  openModelSource,
  type RoutingReport,
  runRoutingEval,
} from '@switchboard/eval';
import { OpenAIEmbedder } from '@switchboard/openai';
import { CliError, reportFailure } from '../errors.ts';
import { EXIT, type Output } from '../io/output.ts';

/** `--embeddings local`: the embedding model that runs in the process. */
const LOCAL = 'local';
const RECALL_MODES: readonly string[] = ['lexical', 'embedding', 'hybrid'] satisfies RecallMode[];

/** Options of {@link routingEvalCommand}, as typed on the command line. */
export interface RoutingEvalCommandOptions {
  /** The directory holding the suite folders; the catalogue is its `routing/` folder. */
  casesDir: string;
  /**
   * `--model`: the model that chooses in both arms, as `switchboard eval` takes it: `offline`,
   * `scripted` (the offline planner behind a local OpenAI-compatible server) or a model name at
   * OPENAI_BASE_URL with OPENAI_API_KEY.
   */
  model: string;
  /** `--requests`: the file of labelled requests in the catalogue's folder (default `requests`; `holdout`). */
  requests?: string | undefined;
  /** `--top-k`, `--recall-threshold`, `--accept-threshold` as typed; the router's defaults when absent. */
  topK?: string | undefined;
  recallThreshold?: string | undefined;
  acceptThreshold?: string | undefined;
  /**
   * `--embeddings`: the router's embedding recall: `local` (the model that runs in the process,
   * `@switchboard/embeddings-local`) or an embedding model at OPENAI_BASE_URL.
   */
  embeddings?: string | undefined;
  /** `--recall`: `lexical`, `embedding` or `hybrid` (default `hybrid` with `--embeddings`, else `lexical`). */
  recall?: string | undefined;
  json: boolean;
  out?: string | undefined;
  /** The environment (`OPENAI_API_KEY`, `OPENAI_BASE_URL` for `--model <name>` and `--embeddings`). */
  env: NodeJS.ProcessEnv;
  output: Output;
}

/**
 * `switchboard eval routing`: runs the labelled requests of `evals/routing` through the agent loop with
 * and without the tool router, with the same model choosing in both (`--model`, offline by default),
 * and prints recall@k, the wrong-tool and clarification rates and the prompt tokens per step. Exit 0
 * done, 2 usage (a bad flag or catalogue, a real model without OPENAI_API_KEY or OPENAI_BASE_URL).
 */
export async function routingEvalCommand(options: RoutingEvalCommandOptions): Promise<number> {
  const { output } = options;
  const router: { topK?: number; recallThreshold?: number; acceptThreshold?: number } = {};
  for (const [flag, key, text] of [
    ['--top-k', 'topK', options.topK],
    ['--recall-threshold', 'recallThreshold', options.recallThreshold],
    ['--accept-threshold', 'acceptThreshold', options.acceptThreshold],
  ] as const) {
    if (text === undefined) continue;
    const value = Number(text);
    if (text.trim() === '' || !Number.isFinite(value)) {
      output.err(
        `${flag} ${text} must be a number, e.g. --top-k 5 --recall-threshold 0.3 --accept-threshold 0.4`,
      );
      return EXIT.usage;
    }
    router[key] = value;
  }
  const apiKey = options.env.OPENAI_API_KEY?.trim();
  const local = options.embeddings?.trim() === LOCAL;
  if (options.recall !== undefined && !RECALL_MODES.includes(options.recall)) {
    output.err(`--recall ${options.recall} must be one of ${RECALL_MODES.join(', ')}, e.g. --recall hybrid`);
    return EXIT.usage;
  }
  if (options.recall !== undefined && options.recall !== 'lexical' && options.embeddings === undefined) {
    output.err(
      `--recall ${options.recall} needs embeddings: add --embeddings local (or an embedding model name)`,
    );
    return EXIT.usage;
  }
  if (options.embeddings !== undefined && !local && !apiKey) {
    output.err(
      '--embeddings needs OPENAI_API_KEY (any text for a local server that checks none) and OPENAI_BASE_URL for an endpoint other than OpenAI, e.g. OPENAI_BASE_URL=http://127.0.0.1:11434/v1',
    );
    return EXIT.usage;
  }
  let report: RoutingReport;
  let models: ModelSource | undefined;
  try {
    const baseURL = options.env.OPENAI_BASE_URL?.trim();
    const embedder: Embedder | undefined =
      options.embeddings === undefined
        ? undefined
        : local
          ? new LocalEmbedder()
          : new OpenAIEmbedder({
              model: options.embeddings,
              apiKey: apiKey ?? '',
              ...(baseURL ? { baseURL } : {}),
            });
    const catalogue = await loadRoutingCatalogue({
      dir: join(options.casesDir, 'routing'),
      ...(options.requests !== undefined ? { requests: options.requests } : {}),
    });
    // The same models `switchboard eval` runs on: one owner of "offline, scripted or a named model".
    models = await openModelSource({
      model: options.model,
      apiKey: apiKey || undefined,
      baseURL: baseURL || undefined,
    });
    const source = models;
    output.err(
      `Routing ${catalogue.requests.length} labelled requests of ${catalogue.requestsFile} over ${catalogue.tools.length} tools on ${source.name}, with and without the router…`,
    );
    report = await runRoutingEval({
      catalogue,
      model: () => source.modelFor('catalogue'),
      router: {
        ...router,
        ...(embedder ? { embedder } : {}),
        ...(options.recall ? { recall: options.recall as RecallMode } : {}),
      },
    });
  } catch (error) {
    if (isEvaluationError(error)) {
      output.err(error.message);
      return EXIT.usage;
    }
    if (isAgentError(error, 'INVALID_OPTIONS')) {
      output.err(error.message);
      return EXIT.usage;
    }
    return reportFailure({ error, output });
  } finally {
    await models?.close();
  }
  const json = `${JSON.stringify(report, null, 2)}\n`;
  if (options.out) {
    try {
      await writeFile(options.out, json);
    } catch (error) {
      return reportFailure({
        error: new CliError('INVALID_SETTING', {
          message: `Cannot write the report: ${error instanceof Error ? error.message : String(error)}. Check the --out path.`,
        }),
        output,
      });
    }
  }
  if (options.json) output.out(json.trimEnd());
  else output.out(formatRoutingReport(report).trimEnd());
  if (options.out) output.err(`Wrote the JSON report to ${options.out}.`);
  return EXIT.ok;
}
