/**
 * The soak bench's model: the offline planner with a fixed latency per call (`DelayedModel`), served
 * over the OpenAI-compatible test server, in its own process so its CPU is not the bench's.
 *
 *   node src/soak-model-server.ts --latency-ms 200
 *
 * Prints `ready {"url": "<base URL up to /v1>"}` once it listens; answers `calls` on its IPC channel
 * (see `soak-ipc.ts`); stops on SIGTERM or when the bench is gone.
 */
import { parseArgs } from 'node:util';
import { DelayedModel } from '@switchboard/agent/testing';
import { OfflineModel } from '@switchboard/offline-model';
import { startOpenAICompatibleServer } from '@switchboard/openai/testing';
import { CallsQuery } from './soak-ipc.ts';

const { values } = parseArgs({ options: { 'latency-ms': { type: 'string', default: '200' } } });
const latencyMs = Number(values['latency-ms']);
if (!Number.isInteger(latencyMs) || latencyMs < 0) {
  console.error('usage: soak-model-server.ts --latency-ms <whole number of ms>');
  process.exit(2);
}
const model = new DelayedModel({
  model: new OfflineModel(),
  delayMs: latencyMs,
  modelId: 'scripted-offline',
});
const server = await startOpenAICompatibleServer({ model, onError: (error) => console.error(error) });
// The server keeps every request body for tests to read; a soak sends tens of thousands.
const kept = server.requests as unknown[];
setInterval(() => {
  kept.length = 0;
}, 1_000).unref();

process.on('message', (message: unknown) => {
  if (CallsQuery.safeParse(message).success) process.send?.({ type: 'calls', calls: model.calls });
});
const close = () => {
  setTimeout(() => process.exit(1), 5_000).unref();
  void server.close().then(() => process.exit(0));
};
process.once('SIGTERM', close);
process.once('disconnect', close);
process.stdout.write(`ready ${JSON.stringify({ url: server.baseURL })}\n`);
