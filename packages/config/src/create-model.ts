import type { ChatModel } from '@switchboard/agent';
import { OfflineModel } from '@switchboard/offline-model';
import { OpenAIChatModel } from '@switchboard/openai';
import type { ModelConfig } from './model-config.ts';

/** The model of a service and a line that says which it is, for the startup log. */
export function createModel(config: ModelConfig): { model: ChatModel; label: string } {
  if (config.kind === 'offline') {
    return { model: new OfflineModel(), label: 'offline planner (deterministic, no network)' };
  }
  return {
    model: new OpenAIChatModel({
      model: config.model,
      apiKey: config.apiKey ?? 'no-key',
      ...(config.baseURL ? { baseURL: config.baseURL } : {}),
    }),
    label: `${config.model} at ${config.baseURL ?? 'the OpenAI API'}`,
  };
}
