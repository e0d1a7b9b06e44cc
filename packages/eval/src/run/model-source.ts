import { randomBytes } from 'node:crypto';
import type { ChatModel } from '@switchboard/agent';
import { OfflineModel } from '@switchboard/offline-model';
import { OpenAIChatModel } from '@switchboard/openai';
import { startOpenAICompatibleServer } from '@switchboard/openai/testing';
import { EvaluationError } from '../errors.ts';
import type { SystemSecret } from './eval-target.ts';

/** Where the agents' models come from for an in-process run. */
export interface ModelSource {
  /** `offline`, `scripted` or the model's name. */
  readonly name: string;
  /** A model for one agent. */
  modelFor(agent: string): ChatModel;
  /** Secrets of the model setup (API keys), which answers must not hold. */
  readonly secrets: readonly SystemSecret[];
  close(): Promise<void>;
}

/** Options of {@link openModelSource}. */
export interface OpenModelSourceOptions {
  /**
   * `offline` (default): the offline planner in process; `scripted`: the offline planner served by a
   * local OpenAI-compatible server and reached through the real `OpenAIChatModel` (the HTTP path);
   * any other name: that model on an OpenAI-compatible endpoint.
   */
  model?: string;
  /** The endpoint's API key (`OPENAI_API_KEY`), for a real model. */
  apiKey?: string | undefined;
  /** The endpoint up to `/v1` (`OPENAI_BASE_URL`; default the OpenAI API), for a real model. */
  baseURL?: string | undefined;
  /** The fake key the scripted server demands (default: a fresh `sk-eval-canary-…`). */
  canary?: string;
}

/** A fresh fake secret, `sk-eval-canary-<24 hex>`. */
export function newCanary(): string {
  return `sk-eval-canary-${randomBytes(12).toString('hex')}`;
}

/**
 * Opens the models of an in-process run. Throws `EvaluationError` `MODEL_UNAVAILABLE` when a real model
 * has neither an API key nor a base URL.
 *
 * @example
 * const models = await openModelSource({ model: 'scripted' });
 * // ... team.startInProcess({ model: (agent) => models.modelFor(agent), ... })
 * await models.close();
 */
export async function openModelSource({
  model = 'offline',
  apiKey,
  baseURL,
  canary = newCanary(),
}: OpenModelSourceOptions = {}): Promise<ModelSource> {
  if (model === 'offline') {
    return {
      name: 'offline',
      modelFor: () => new OfflineModel(),
      secrets: [],
      close: async () => {},
    };
  }
  if (model === 'scripted') {
    const server = await startOpenAICompatibleServer({ model: new OfflineModel(), apiKey: canary });
    return {
      name: 'scripted',
      modelFor: () =>
        new OpenAIChatModel({
          model: 'offline-planner',
          apiKey: canary,
          baseURL: server.baseURL,
          maxRetries: 0,
        }),
      secrets: [{ label: 'model API key (canary)', value: canary }],
      close: () => server.close(),
    };
  }
  if (!apiKey && !baseURL) {
    throw new EvaluationError('MODEL_UNAVAILABLE', {
      message: `The model "${model}" needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local OpenAI-compatible server that needs no key); use --model offline or --model scripted to run without one.`,
    });
  }
  return {
    name: model,
    modelFor: () =>
      new OpenAIChatModel({ model, apiKey: apiKey ?? 'no-key', ...(baseURL ? { baseURL } : {}) }),
    secrets: apiKey ? [{ label: 'OPENAI_API_KEY', value: apiKey }] : [],
    close: async () => {},
  };
}
