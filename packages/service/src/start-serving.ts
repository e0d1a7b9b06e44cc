import { defaultQueueAddress, QueueDepthReader, QueueTransportFactory } from '@switchboard/a2a-bullmq';
import { cardSigner } from '@switchboard/cards';
import { createModel } from '@switchboard/config';
import { AgentRegistry, signQueuedRequests } from '@switchboard/delegate';
import { hostAgent, wasLoggedByHost } from '@switchboard/host';
import { actingForOwner } from '@switchboard/host/approvals';
import {
  RedisApprovalBoard,
  RedisCostBook,
  RedisIntentStore,
  RedisRunStateStore,
  RedisTaskDirectory,
  RedisTaskEventLog,
  RedisTaskLedger,
  RedisTaskStore,
} from '@switchboard/host/redis';
import {
  ownKeyProblem,
  RedisReplayGuard,
  serviceAssertionAuthenticator,
  serviceSigner,
  trustedKeys,
} from '@switchboard/identity';
import {
  createRedisConnection,
  isCluster,
  type RedisConnection,
  type RedisConnectionOptions,
  redactUrl,
} from '@switchboard/redis';
import { createLogger, routeConsole, type Telemetry } from '@switchboard/telemetry';
import type { ParentWatch } from './exit-with-parent.ts';
import { LogAuditSink } from './log-audit-sink.ts';
import type { RunAgentServiceOptions, RunningAgentService } from './run-agent-service-options.ts';
import { startShadow } from './start-shadow.ts';

/**
 * Connects to Redis (one node or a cluster) or fails startup with a message that names where it
 * looked and the variable to fix (no endless retry loop).
 */
async function connectRedis(options: RedisConnectionOptions): Promise<RedisConnection> {
  // Auto-pipelined: a task save, its event append and the queue's reply in one turn go out in one write.
  const redis = createRedisConnection({ ...options, lazyConnect: true, autoPipelining: true });
  const where =
    options.clusterNodes === undefined
      ? `${redactUrl(String(options.url))} (REDIS_URL)`
      : `the Redis Cluster at ${String(options.clusterNodes)} (REDIS_CLUSTER_NODES)`;
  // The connection's own error (a refused login, an untrusted certificate) says more than the
  // "Connection is closed" that connect() rejects with after it; and it is not left unhandled.
  let cause: Error | undefined;
  const onError = (error: Error) => {
    cause ??= error;
  };
  redis.on('error', onError);
  try {
    await Promise.race([
      redis.connect(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timed out after 5 s')), 5_000)),
    ]);
    redis.off('error', onError);
    return redis;
  } catch (error) {
    redis.disconnect();
    const reason = (cause ?? (error instanceof Error ? error : new Error(String(error)))).message;
    throw new Error(
      `Redis is not reachable at ${where}: ${reason.replace(/\.+$/, '')}. Start it, or set REDIS_URL or REDIS_CLUSTER_NODES (with REDIS_USERNAME, REDIS_PASSWORD, REDIS_TLS and REDIS_TLS_CA_FILE as it needs).`,
    );
  }
}

/** How long a cluster node that left stays quiet in the log if it flaps (one failover, one line). */
const NODE_LEFT_QUIET_MS = 60_000;

/** `host:port` of a cluster node, for logs. */
function nodeName(node: RedisConnection): string {
  const { host, port } = node.options as { host?: string; port?: number };
  return `${host ?? '?'}:${port ?? '?'}`;
}

/** What a drain may take beyond `drainMs`: canceling what is left, closing Redis, flushing spans. */
const SHUTDOWN_MARGIN_MS = 15_000;

/** The wiring behind `runAgentService`, loaded once tracing has started. */
export async function startServing({
  config,
  version,
  setup,
  approvalsBoard = false,
  handleSignals = true,
  telemetry,
  parent,
  logger: givenLogger,
  model: givenModel,
  audit: givenAudit,
}: RunAgentServiceOptions & {
  version: string;
  telemetry: Telemetry;
  /** The launcher this process follows (started with an IPC channel), watched since the process began. */
  parent: ParentWatch | undefined;
}): Promise<RunningAgentService> {
  const logger = givenLogger ?? createLogger({ serviceName: config.service, level: config.logLevel });
  // A service that owns its process writes nothing but its logger's JSON lines: what libraries print
  // with console (the A2A SDK's handlers print errors raw, quoting the caller's ids) goes through it,
  // and what the SDK prints again of an error the host already logged is dropped.
  const restoreConsole = handleSignals
    ? routeConsole({ logger, drop: (args) => args.some(wasLoggedByHost) })
    : () => {};
  for (const note of config.deprecations ?? []) logger.warn({ service: config.service }, note);
  const redis = await connectRedis(config.redis);
  let lastRedisWarning = 0;
  redis.on('error', (error: Error) => {
    // ioredis reconnects by itself; say so once in a while rather than on every retry.
    if (Date.now() - lastRedisWarning < 5_000) return;
    lastRedisWarning = Date.now();
    logger.warn({ err: error }, 'Redis connection lost; reconnecting');
  });
  let redisClosing = false;
  if (isCluster(redis)) {
    // A failover shows as the dead master leaving the client's node list; while its replica is being
    // promoted the client re-adds and drops it from stale slot maps several times a second. One line
    // per node and failover, not one per flap or retry.
    const leftAt = new Map<string, number>();
    redis.on('-node', (node: RedisConnection) => {
      // Closing drops every node: no failover.
      if (redisClosing) return;
      const name = nodeName(node);
      const last = leftAt.get(name);
      leftAt.set(name, Date.now());
      if (last === undefined || Date.now() - last > NODE_LEFT_QUIET_MS)
        logger.warn({ node: name }, 'Redis Cluster node left; its slots move to a replica');
    });
  }
  const { model, label } = givenModel
    ? { model: givenModel, label: `${givenModel.modelId} (${givenModel.provider}, given)` }
    : createModel(config.model);
  // Reply streams live under the namespace too, as every other key of the system.
  const queue = new QueueTransportFactory({
    redis,
    namespace: config.namespace,
    timeoutMs: config.hopTimeoutMs,
    serviceParameters: signQueuedRequests,
  });
  const registry = new AgentRegistry({ redis, namespace: config.namespace, logger });
  // What waits on each agent's queue, for the console's team page.
  const depths = new QueueDepthReader({ redis });
  // Each request to a peer carries an assertion of this service, for its end user, that lives no
  // longer than the hop it is made for.
  const signer = serviceSigner({ key: config.serviceKey, lifetimeMs: config.hopTimeoutMs });
  const built = await setup({
    config,
    redis,
    model,
    logger,
    tracer: telemetry.tracer,
    registry,
    queue,
    signer,
  });
  const { agent } = built;
  const address = defaultQueueAddress(agent.name, config.namespace);
  const { prefix } = address;
  const trusted = trustedKeys({ source: config.trustedKeys, logger });
  if (config.trustedKeys.kind === 'url') {
    // A set served from a URL is first seen now: peers trust what it lists, so say when this
    // service's own key is missing (every request it signs would be refused).
    const problem = await trusted
      .keySet()
      .then((keySet) => ownKeyProblem(keySet, config.serviceKey))
      .catch(
        (error: unknown) =>
          `could not be fetched (${error instanceof Error ? error.message : String(error)})`,
      );
    if (problem)
      logger.warn({ variable: 'SWITCHBOARD_TRUSTED_KEYS', problem }, `the trusted keys ${problem}`);
  }
  const retentionSeconds = config.retentionDays * 24 * 60 * 60;
  const taskStore = new RedisTaskStore({
    redis,
    prefix,
    retention: { terminalTtlSeconds: retentionSeconds, activeTtlSeconds: retentionSeconds },
    ownerResolver: actingForOwner(),
    logger,
  });
  // Peers prove themselves with assertions signed by their own keys, bound to each request.
  const peerAuthenticators = [
    serviceAssertionAuthenticator({
      audience: agent.name,
      trustedKeys: trusted,
      replay: new RedisReplayGuard({ redis, prefix }),
      delegators: config.delegatingServices,
      logger,
    }),
  ];
  const runState = new RedisRunStateStore({
    redis,
    prefix,
    ttlSeconds: retentionSeconds,
    maxTurns: config.historyTurns,
    logger,
  });
  const audit = givenAudit ?? new LogAuditSink(logger);
  const shadow = config.shadow
    ? startShadow({
        config: config.shadow,
        agent: built.shadowAgent ?? built.currentAgent ?? agent,
        liveModel: { model, label },
        redis,
        prefix,
        runState,
        audit,
        tracer: telemetry.tracer,
        logger,
      })
    : undefined;
  // With the board (the supervisor), each root request's cost per agent per day, for the console.
  const costBook = approvalsBoard ? new RedisCostBook({ redis, prefix }) : undefined;
  // With the board, the operators' console beside the admin API (same sign-in), at /console. Loaded
  // only then: a worker has no board, and the console's pages, templates and helmet weigh several MB.
  const operatorRoutes = approvalsBoard
    ? await Promise.all([import('@switchboard/console'), import('./console-sources.ts')]).then(
        ([{ consoleRoutes, registryAgentRecords, registryTeamView }, { consoleSources }]) => [
          consoleRoutes({
            team: registryTeamView({
              registry,
              queueOf: (name) => depths.read(defaultQueueAddress(name, config.namespace)),
            }),
            // The workers' tasks and conversations, each under its agent's own prefix.
            agents: registryAgentRecords({
              registry,
              self: agent.name,
              recordsOf: (name) => {
                const { prefix: theirs } = defaultQueueAddress(name, config.namespace);
                return {
                  tasks: new RedisTaskDirectory({ redis, prefix: theirs, logger }),
                  runs: new RedisRunStateStore({
                    redis,
                    prefix: theirs,
                    ttlSeconds: retentionSeconds,
                    logger,
                  }),
                  // Read only: its followers share one connection while a page follows a task.
                  events: new RedisTaskEventLog({ redis, prefix: theirs, retentionSeconds, logger }),
                };
              },
            }),
            // Behind a proxy that ends TLS the request is plain HTTP; the public URL says.
            secureCookie: config.publicUrl.startsWith('https:'),
            ...consoleSources({ config, redis, registry }),
            ...(costBook ? { costBook } : {}),
          }),
        ],
      )
    : undefined;
  const host = await hostAgent({
    agent,
    model,
    version,
    ...(built.skills ? { skills: built.skills } : {}),
    ...(built.router ? { router: built.router } : {}),
    // Peers that trust this service's key can tell its card was not changed on the way (A2A §8.4).
    ...(config.card.sign ? { signCard: cardSigner({ key: config.serviceKey }) } : {}),
    http: {
      port: config.port,
      host: config.host,
      publicUrl: config.publicUrl,
      readiness: () => redis.status === 'ready',
      unversionedCard: config.card.unversioned,
      ...(operatorRoutes ? { operatorRoutes } : {}),
    },
    queue: { redis, address, lockDurationMs: config.jobLockMs, stalledIntervalMs: config.jobLockMs },
    auth: {
      tokens: {
        users: config.userTokens,
        operators: config.operatorTokens,
      },
      authenticators: peerAuthenticators,
      ...(config.identityProvider ? { identityProvider: config.identityProvider } : {}),
      // A worker given no user or operator token, as the team's launchers start it, takes service
      // callers only; who sends it a user's token is told to go to the supervisor.
      servicesOnly:
        !config.identityProvider &&
        Object.keys(config.userTokens ?? {}).length === 0 &&
        Object.keys(config.operatorTokens ?? {}).length === 0,
    },
    stores: {
      taskStore,
      ledger: new RedisTaskLedger({ redis, prefix, instanceId: config.instanceId, logger }),
      // Each task's events in a Redis Stream: SubscribeToTask follows a task from any replica.
      eventLog: new RedisTaskEventLog({
        redis,
        prefix,
        retentionSeconds,
        followerIdleMs: config.streamIdleMs,
        logger,
      }),
      runState,
      intents: new RedisIntentStore({ redis, prefix, ttlSeconds: retentionSeconds }),
      // Every user's tasks, for the operators' console.
      directory: new RedisTaskDirectory({ redis, prefix, logger }),
    },
    limits: { users: config.userLimits, ids: config.idLimits },
    cancels: { redis, prefix },
    registry: { registry, instanceId: config.instanceId, metadata: { url: config.publicUrl } },
    ownerResolver: actingForOwner(),
    audit,
    ...(shadow ? { shadow: shadow.tap } : {}),
    ...(built.currentAgent ? { currentAgent: built.currentAgent } : {}),
    ...(approvalsBoard
      ? {
          approvals: new RedisApprovalBoard({ redis, prefix, ttlSeconds: retentionSeconds }),
          maxPendingApprovals: config.maxPendingApprovals,
        }
      : {}),
    answerInStatus: config.answerInStatus,
    ...(costBook ? { costBook } : {}),
    tracer: telemetry.tracer,
    logger,
  });
  await host.start();
  // A shadow supervisor delegates to the workers' shadows: this agent's shadow takes those on its own queue.
  await shadow?.serveDelegations({
    address,
    authenticators: peerAuthenticators,
    jobLockMs: config.jobLockMs,
  });
  logger.info(
    {
      service: config.service,
      url: config.publicUrl,
      queue: address.queue,
      model: label,
      ...(shadow ? { shadow: shadow.label } : {}),
    },
    `${config.service} ready`,
  );

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      logger.info({ service: config.service }, `${config.service} draining`);
      await host.close({ graceMs: config.drainMs });
      // The requests the cost book is still adding up are written before Redis closes.
      await costBook
        ?.close()
        .catch((error: unknown) =>
          logger.warn({ err: error }, 'the cost book could not write its last requests'),
        );
      await shadow?.close();
      await built.close?.();
      await queue.close();
      await depths.close();
      // QUIT can wait forever on a cluster connection that lived through a failover: then just close.
      redisClosing = true;
      await Promise.race([redis.quit(), new Promise((resolve) => setTimeout(resolve, 2_000).unref())]).catch(
        () => {},
      );
      redis.disconnect();
      logger.info({ service: config.service }, `${config.service} stopped`);
      await telemetry.shutdown();
      restoreConsole();
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
    parent?.drainWith({ close, deadlineMs: config.drainMs + SHUTDOWN_MARGIN_MS, onError: failed });
  }
  return { url: host.url, close };
}
