import {
  AgentRegistry,
  a2aHttpInterfaces,
  actingForOwner,
  adminApprovalsRouter,
  bearerAuthenticator,
  buildAgentCard,
  createA2aHttpApp,
  createHostedAgent,
  deduplicateMessages,
  listenForCancels,
  RedisApprovalBoard,
  RedisIntentStore,
  RedisRunStateStore,
  RedisTaskLedger,
  RedisTaskStore,
  SERVICE_USER,
  startA2aHttpServer,
} from '@switchboard/a2a';
import {
  A2aQueueServer,
  BULLMQ_BINDING,
  defaultQueueAddress,
  QueueTransportFactory,
  queueUrl,
} from '@switchboard/a2a-bullmq';
import { createLogger, type Telemetry } from '@switchboard/telemetry';
import { Redis } from 'ioredis';
import { createModel } from './create-model.ts';
import { exitWithParent } from './exit-with-parent.ts';
import { LogAuditSink } from './log-audit-sink.ts';
import type { RunAgentServiceOptions, RunningAgentService } from './run-agent-service.ts';

/** Connects to Redis or fails startup with a message that names the URL (no endless retry loop). */
async function connectRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: true });
  const safe = url.replace(/\/\/[^@/]*@/, '//***@');
  try {
    await Promise.race([
      redis.connect(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timed out after 5 s')), 5_000)),
    ]);
    return redis;
  } catch (error) {
    redis.disconnect();
    throw new Error(
      `Redis is not reachable at ${safe} (${error instanceof Error ? error.message : String(error)}). Start it, or set REDIS_URL.`,
    );
  }
}

/** What a drain may take beyond `drainMs`: canceling what is left, closing Redis, flushing spans. */
const SHUTDOWN_MARGIN_MS = 15_000;

/** Resolves when `done()` holds, or after `ms`. */
async function until(done: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + Math.max(0, ms);
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** The wiring behind `runAgentService`, loaded once tracing has started. */
export async function startServing({
  config,
  version,
  setup,
  approvalsBoard = false,
  handleSignals = true,
  telemetry,
}: RunAgentServiceOptions & { version: string; telemetry: Telemetry }): Promise<RunningAgentService> {
  const logger = createLogger({ serviceName: config.service, level: config.logLevel });
  const redis = await connectRedis(config.redisUrl);
  let lastRedisWarning = 0;
  redis.on('error', (error: Error) => {
    // ioredis reconnects by itself; say so once in a while rather than on every retry.
    if (Date.now() - lastRedisWarning < 5_000) return;
    lastRedisWarning = Date.now();
    logger.warn({ err: error }, 'Redis connection lost; reconnecting');
  });
  const { model, label } = createModel(config.model);
  const queue = new QueueTransportFactory({ redis, timeoutMs: config.hopTimeoutMs });
  const registry = new AgentRegistry({ redis, namespace: config.namespace, logger });
  const built = await setup({ config, redis, model, logger, tracer: telemetry.tracer, registry, queue });
  const { agent } = built;
  const address = defaultQueueAddress(agent.name, config.namespace);
  const card = buildAgentCard({
    agent,
    version,
    bearerAuth: true,
    interfaces: [
      ...a2aHttpInterfaces({ baseUrl: config.publicUrl }),
      { url: queueUrl(address), protocolBinding: BULLMQ_BINDING },
    ],
    ...(built.skills ? { skills: built.skills } : {}),
  });
  const operators = new Set(Object.values(config.operatorTokens));
  const board = approvalsBoard ? new RedisApprovalBoard({ redis, prefix: address.prefix }) : undefined;
  const taskStore = new RedisTaskStore({
    redis,
    prefix: address.prefix,
    ownerResolver: actingForOwner(),
    logger,
  });
  const ledger = new RedisTaskLedger({
    redis,
    prefix: address.prefix,
    instanceId: config.instanceId,
    logger,
  });
  const hosted = createHostedAgent({
    agent,
    model,
    card,
    taskStore,
    ledger,
    ownerResolver: actingForOwner(),
    runState: new RedisRunStateStore({ redis, prefix: address.prefix, logger }),
    intents: new RedisIntentStore({ redis, prefix: address.prefix }),
    audit: new LogAuditSink(logger),
    ...(built.currentAgent ? { currentAgent: built.currentAgent } : {}),
    canApprove: (user) =>
      !!user?.userName && (operators.has(user.userName) || user.userName === SERVICE_USER),
    ...(board ? { approvals: board } : {}),
    tracer: telemetry.tracer,
    logger,
  });
  await ledger.start(taskStore);
  const cancels = await listenForCancels({
    redis,
    prefix: address.prefix,
    executor: hosted.executor,
    logger,
  });
  const serviceTokens = { [config.serviceToken]: SERVICE_USER };
  const queueServer = new A2aQueueServer({
    requestHandler: deduplicateMessages({
      handler: hosted.requestHandler,
      redis,
      prefix: address.prefix,
      logger,
    }),
    card,
    address,
    redis,
    authenticate: bearerAuthenticator(serviceTokens),
    lockDurationMs: config.jobLockMs,
    stalledIntervalMs: config.jobLockMs,
    logger,
  });
  await queueServer.start();
  const app = createA2aHttpApp({
    requestHandler: hosted.requestHandler,
    card,
    auth: { bearerTokens: { ...config.apiTokens, ...config.operatorTokens, ...serviceTokens } },
    readiness: () => redis.status === 'ready',
    logger,
  });
  if (board) {
    app.use(
      '/admin',
      adminApprovalsRouter({
        board,
        requestHandler: hosted.requestHandler,
        operatorTokens: config.operatorTokens,
        logger,
      }),
    );
  }
  const http = await startA2aHttpServer({ app, port: config.port, host: config.host });
  const registration = await registry.register({
    card,
    instanceId: config.instanceId,
    metadata: { url: config.publicUrl },
  });
  logger.info(
    { service: config.service, url: config.publicUrl, queue: address.queue, model: label },
    `${config.service} ready`,
  );

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      logger.info({ service: config.service }, `${config.service} draining`);
      await registration.stop().catch(() => {});
      const started = Date.now();
      await http.close();
      await queueServer.close({ graceMs: config.drainMs });
      // Runs that came over HTTP go on after their connection closed: give them the rest of the
      // drain, then cancel what is left, so no task is left "working" behind this process.
      await until(() => hosted.executor.runningTasks === 0, config.drainMs - (Date.now() - started));
      if (hosted.executor.runningTasks > 0) {
        logger.warn(
          { running: hosted.executor.abortAll() },
          'drain ran out of time; canceling the tasks left',
        );
        await until(() => hosted.executor.runningTasks === 0, 5_000);
      }
      await cancels.close();
      await ledger.stop();
      await built.close?.();
      await queue.close();
      await redis.quit().catch(() => redis.disconnect());
      logger.info({ service: config.service }, `${config.service} stopped`);
      await telemetry.shutdown();
    })();
    return closing;
  };
  if (handleSignals) {
    const failed = (error: unknown) => logger.error({ err: error }, 'shutdown failed');
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => {
        close().then(
          () => process.exit(0),
          (error: unknown) => {
            failed(error);
            process.exit(1);
          },
        );
      });
    }
    // Started by a launcher (`switchboard dev`, the demo, a test) over an IPC channel: a launcher
    // killed outright must not leave this service running, orphaned.
    exitWithParent({ close, deadlineMs: config.drainMs + SHUTDOWN_MARGIN_MS, onError: failed });
  }
  return { url: http.url, close };
}
