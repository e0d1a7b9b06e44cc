import { HttpUrl } from './env-values.ts';
import { placeholderProblem } from './secret-strength.ts';

/** Which model an agent runs on: the offline planner, or an OpenAI-compatible endpoint. */
export type ModelConfig =
  | { kind: 'offline' }
  | { kind: 'openai'; model: string; apiKey: string | undefined; baseURL: string | undefined };

/** The model used when an API key is set and no model is named. */
export const DEFAULT_OPENAI_MODEL = 'gpt-4.1-mini';

const read = (env: NodeJS.ProcessEnv, name: string) => {
  const value = env[name]?.trim();
  return value ? value : undefined;
};

/**
 * The model of one agent from the environment. Each setting is read per agent first
 * (`ORDERS_MODEL`, `ORDERS_OPENAI_API_KEY`, `ORDERS_OPENAI_BASE_URL`), then globally
 * (`SWITCHBOARD_MODEL`, `OPENAI_API_KEY`, `OPENAI_BASE_URL`). No key, no base URL and no model (or
 * the model `offline`): the offline planner. A key alone: {@link DEFAULT_OPENAI_MODEL}.
 */
export function readModelConfig(
  env: NodeJS.ProcessEnv,
  agent: string,
): { config: ModelConfig } | { problems: { variable: string; message: string }[] } {
  const scoped = (name: string) => `${agent.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_${name}`;
  const pick = (own: string, global: string) => {
    const local = read(env, scoped(own));
    return local !== undefined
      ? { variable: scoped(own), value: local }
      : { variable: global, value: read(env, global) };
  };
  const model = pick('MODEL', 'SWITCHBOARD_MODEL');
  const apiKey = pick('OPENAI_API_KEY', 'OPENAI_API_KEY');
  const baseURL = pick('OPENAI_BASE_URL', 'OPENAI_BASE_URL');
  if (model.value === 'offline') return { config: { kind: 'offline' } };
  if (!model.value && !apiKey.value && !baseURL.value) return { config: { kind: 'offline' } };
  const problems: { variable: string; message: string }[] = [];
  if (baseURL.value !== undefined) {
    const url = HttpUrl.safeParse(baseURL.value);
    if (!url.success)
      problems.push({ variable: baseURL.variable, message: 'must be an http(s) URL up to /v1' });
  }
  // A provider's key is checked by the provider; only a placeholder left in place is refused here
  // (a local server may take any key at all).
  const placeholder = apiKey.value ? placeholderProblem(apiKey.value) : undefined;
  if (placeholder) {
    problems.push({
      variable: apiKey.variable,
      message: `${placeholder}; set the key your provider gave you, or unset it`,
    });
  }
  if (!apiKey.value && !baseURL.value) {
    problems.push({
      variable: apiKey.variable,
      message: `is needed for model "${model.value}" (or set ${baseURL.variable} to a local server that needs no key, or set ${model.variable}=offline)`,
    });
  }
  if (problems.length > 0) return { problems };
  return {
    config: {
      kind: 'openai',
      model: model.value ?? DEFAULT_OPENAI_MODEL,
      apiKey: apiKey.value,
      baseURL: baseURL.value,
    },
  };
}
