import { type ChatModel, OfflineModel, OpenAIChatModel, runAgent, stderrLogger } from '@switchboard/agent';
import { ConfigError, loadConfig } from './config.js';
import { formatRun, progressLine } from './print-run.js';
import { createOrdersDesk } from './shop-agent.js';

const DEFAULT_REQUEST = 'Where is my order A10086 and when will it arrive?';

function createModel(): { model: ChatModel; label: string } {
  const config = loadConfig(process.env);
  if (config.model === 'offline') {
    return {
      model: new OfflineModel(),
      label: 'offline planner (deterministic, no network, not an LLM; set SWITCHBOARD_MODEL to use one)',
    };
  }
  const model = new OpenAIChatModel({
    model: config.modelName,
    apiKey: config.apiKey,
    baseURL: config.baseURL,
  });
  return { model, label: `${config.modelName} at ${config.baseURL ?? 'the OpenAI API'}` };
}

async function main(): Promise<void> {
  const request = process.argv.slice(2).join(' ').trim() || DEFAULT_REQUEST;
  const { model, label } = createModel();
  const agent = createOrdersDesk();
  console.log(`Switchboard demo: the ${agent.name} agent, one request`);
  console.log(`Model: ${label}`);
  console.log(`Tools: ${agent.toolset.names.join(', ')}\n`);
  console.log(`Request: ${request}\n`);

  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  const result = await runAgent({
    agent,
    model,
    input: request,
    signal: controller.signal,
    logger: stderrLogger(),
    onEvent: (event) => {
      const line = progressLine(event);
      if (line) console.log(line);
    },
  });
  console.log(`\n${formatRun(result)}`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exitCode = 2;
    return;
  }
  const code = typeof error === 'object' && error && 'code' in error ? ` [${String(error.code)}]` : '';
  console.error(`The demo failed${code}: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
