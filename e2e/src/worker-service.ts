/** The orders worker as its own process: A2A over its BullMQ queue, traced. Prints "ready". */
import { startTelemetry } from '@switchboard/telemetry';
import { ordersQueue, serviceEnv } from './service-env.ts';
import { stopWhenTold } from './stop-when-told.ts';

const env = serviceEnv(process.env);
const telemetry = await startTelemetry({
  serviceName: 'orders',
  serviceVersion: '0.1.0',
  environment: 'test',
  instanceId: `orders-${process.pid}`,
  ...(env.otlpEndpoint ? { otlpEndpoint: env.otlpEndpoint } : {}),
  ...(env.spanFile ? { spanFile: env.spanFile } : {}),
});
// Loaded after telemetry started, so instrumentation is in place first.
const { buildAgentCard, createAgentHandler } = await import('@switchboard/host');
const { deduplicateMessages } = await import('@switchboard/host');
const { A2aQueueServer, BULLMQ_BINDING, queueUrl } = await import('@switchboard/a2a-bullmq');
const { createRedisConnection } = await import('@switchboard/redis');
const { silentLogger } = await import('@switchboard/agent');
const { createOrdersAgent } = await import('./agents.ts');

const redis = createRedisConnection({ url: env.redisUrl });
const address = ordersQueue(env.prefix);
const { agent, model } = createOrdersAgent();
const card = buildAgentCard({
  agent,
  interfaces: [{ url: queueUrl(address), protocolBinding: BULLMQ_BINDING }],
});
const hosted = createAgentHandler({ agent, model, card, tracer: telemetry.tracer, logger: silentLogger() });
const server = new A2aQueueServer({
  requestHandler: deduplicateMessages({
    handler: hosted.requestHandler,
    redis,
    prefix: address.prefix,
    logger: silentLogger(),
  }),
  card,
  address,
  redis,
  logger: silentLogger(),
});
await server.start();
process.stdout.write('ready\n');

stopWhenTold({
  stop: async () => {
    await server.close({ graceMs: 5_000 });
    await redis.quit();
    await telemetry.shutdown();
  },
  deadlineMs: 20_000,
});
