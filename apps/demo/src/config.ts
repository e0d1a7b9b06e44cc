import { z } from 'zod';

const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

const Env = z
  .object({
    SWITCHBOARD_MODEL: optional(z.string().trim().min(1)),
    SWITCHBOARD_MODEL_BASE_URL: optional(
      z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as http://127.0.0.1:11434/v1' }),
    ),
    SWITCHBOARD_MODEL_API_KEY: optional(z.string().min(1)),
  })
  .superRefine((env, ctx) => {
    const remote =
      env.SWITCHBOARD_MODEL_BASE_URL !== undefined || env.SWITCHBOARD_MODEL_API_KEY !== undefined;
    if (remote && (env.SWITCHBOARD_MODEL === undefined || env.SWITCHBOARD_MODEL === 'offline')) {
      ctx.addIssue({
        code: 'custom',
        path: ['SWITCHBOARD_MODEL'],
        message: 'is required with a model endpoint: name the model to call, e.g. gpt-4.1-mini or qwen-plus',
      });
    }
    if (!remote && env.SWITCHBOARD_MODEL !== undefined && env.SWITCHBOARD_MODEL !== 'offline') {
      ctx.addIssue({
        code: 'custom',
        path: ['SWITCHBOARD_MODEL_API_KEY'],
        message: `is required to call ${env.SWITCHBOARD_MODEL}: set it (or SWITCHBOARD_MODEL_BASE_URL for a local server), or unset SWITCHBOARD_MODEL to run offline`,
      });
    }
  });

/** The demo's configuration. */
export type DemoConfig =
  | { model: 'offline' }
  | { model: 'openai-compatible'; modelName: string; baseURL: string | undefined; apiKey: string };

/** Why the configuration was refused, one line per variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
    this.name = new.target.name;
  }
}

/**
 * Reads the demo's configuration from the environment. With no model variables set, the demo runs on
 * the offline model; `SWITCHBOARD_MODEL` plus `SWITCHBOARD_MODEL_API_KEY` and/or
 * `SWITCHBOARD_MODEL_BASE_URL` switch it to any OpenAI-compatible endpoint.
 */
export function loadConfig(env: NodeJS.ProcessEnv): DemoConfig {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.map(String).join('.')} ${issue.message}`),
    );
  }
  const {
    SWITCHBOARD_MODEL: modelName,
    SWITCHBOARD_MODEL_BASE_URL: baseURL,
    SWITCHBOARD_MODEL_API_KEY: apiKey,
  } = parsed.data;
  if (modelName === undefined || modelName === 'offline') return { model: 'offline' };
  // Local OpenAI-compatible servers (Ollama, vLLM) accept any key; the client insists on one.
  return { model: 'openai-compatible', modelName, baseURL, apiKey: apiKey ?? 'not-needed' };
}
