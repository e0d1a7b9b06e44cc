/** The supervisor as its own process: A2A over HTTP, delegating over the queue, traced. Prints its URL. */
import { startTelemetry } from '@switchboard/telemetry';
import { ordersQueue, serviceEnv } from './service-env.ts';
import { stopWhenTold } from './stop-when-told.ts';

const env = serviceEnv(process.env);
const telemetry = await startTelemetry({
  serviceName: 'supervisor',
  serviceVersion: '0.1.0',
  environment: 'test',
  instanceId: `supervisor-${process.pid}`,
  ...(env.otlpEndpoint ? { otlpEndpoint: env.otlpEndpoint } : {}),
  ...(env.spanFile ? { spanFile: env.spanFile } : {}),
});
// Loaded after telemetry started, so HTTP instrumentation is in place first.
const { buildAgentCard, createAgentHandler } = await import('@switchboard/host');
const { a2aHttpInterfaces, createA2aHttpApp, startA2aHttpServer } = await import('@switchboard/host/http');
const { BULLMQ_BINDING, QueueTransportFactory, queueUrl } = await import('@switchboard/a2a-bullmq');
const { createRedisConnection } = await import('@switchboard/redis');
const { silentLogger } = await import('@switchboard/agent');
const { ClientFactory } = await import('@a2a-js/sdk/client');
const { createOrdersAgent, createSupervisorAgent } = await import('./agents.ts');

const redis = createRedisConnection({ url: env.redisUrl });
const queue = new QueueTransportFactory({ redis, timeoutMs: 20_000 });
const ordersCard = buildAgentCard({
  agent: createOrdersAgent().agent,
  interfaces: [{ url: queueUrl(ordersQueue(env.prefix)), protocolBinding: BULLMQ_BINDING }],
});
const ordersClient = new ClientFactory({ transports: [queue] }).createFromAgentCard(ordersCard);
const { agent, model } = createSupervisorAgent(() => ordersClient);

const port = Number(process.env.E2E_PORT);
if (!Number.isInteger(port) || port <= 0)
  throw new Error('E2E_PORT is required: the port the supervisor listens on');
const card = buildAgentCard({
  agent,
  interfaces: a2aHttpInterfaces({ baseUrl: `http://127.0.0.1:${port}` }),
});
const hosted = createAgentHandler({
  agent,
  model,
  card,
  tracer: telemetry.tracer,
  logger: silentLogger(),
});
const app = createA2aHttpApp({ requestHandler: hosted.requestHandler, card, logger: silentLogger() });
const http = await startA2aHttpServer({ app, port });
process.stdout.write(`ready ${http.url}\n`);

stopWhenTold({
  stop: async () => {
    await http.close();
    await queue.close();
    await redis.quit();
    await telemetry.shutdown();
  },
  deadlineMs: 20_000,
});
