import type { ModelConfig } from '@switchboard/config';

const OFFLINE = 'the offline planner (deterministic, no network, not an LLM)';
const HOW_TO_SWITCH =
  'Set OPENAI_API_KEY (and SWITCHBOARD_MODEL to pick a model, OPENAI_BASE_URL for another OpenAI-compatible endpoint) to run the agents on a real model.';

const labelOf = (model: ModelConfig) =>
  model.kind === 'offline' ? OFFLINE : `${model.model} at ${model.baseURL ?? 'the OpenAI API'}`;

/** What the demo says about the agents' models, and whether every agent runs the offline planner. */
export interface ModelLine {
  lines: string[];
  /** Every agent runs the offline planner, so the answers are known in advance. */
  offline: boolean;
}

/**
 * Says which model the agents run: the offline planner unless the environment names another; then
 * the services use that one (per agent, when the settings differ), and the answers will vary.
 */
export function modelLine({
  models,
}: {
  models: readonly { agent: string; model: ModelConfig }[];
}): ModelLine {
  const offline = models.every(({ model }) => model.kind === 'offline');
  if (offline)
    return { offline, lines: [`Model:  ${OFFLINE}, for every agent.`, `        ${HOW_TO_SWITCH}`] };
  const labels = new Set(models.map(({ model }) => labelOf(model)));
  if (labels.size === 1) {
    const [label] = labels;
    return {
      offline,
      lines: [`Model:  ${label}, for every agent (from the environment; the answers will vary).`],
    };
  }
  return {
    offline,
    lines: [
      'Models: per agent, from the environment (the answers will vary):',
      ...models.map(({ agent, model }) => `        ${agent.padEnd(10)} ${labelOf(model)}`),
    ],
  };
}
