import type { AgentCard } from '@a2a-js/sdk';
import type { A2ARequestHandler, TaskStore } from '@a2a-js/sdk/server';
import { A2aQueueServer, BULLMQ_BINDING, type QueueAddress, queueUrl } from '@switchboard/a2a-bullmq';
import { type IntentStore, type Logger, stderrLogger } from '@switchboard/agent';
import type { AgentRegistry, Registration } from '@switchboard/delegate';
import {
  type Authenticator,
  firstOf,
  hasStaticTokens,
  type JwtAuthenticatorOptions,
  jwtAuthenticator,
  openIdConfigurationUrl,
  queueAuthenticator,
  type StaticTokens,
  staticTokenAuthenticator,
} from '@switchboard/identity';
import type { SkillSpec } from '@switchboard/protocol';
import type { RedisConnection } from '@switchboard/redis';
import express, { type Express } from 'express';
import { type AgentHandler, type AgentHandlerOptions, createAgentHandler } from './agent-handler.ts';
import { adminApprovalsRouter } from './approvals/admin-approvals-router.ts';
import type { UnversionedCardShape } from './bindings/http/agent-card-route.ts';
import { createA2aHttpApp } from './bindings/http/create-app.ts';
import type { ReadinessCheck } from './bindings/http/health-routes.ts';
import { listenFirst } from './bindings/http/listen-first.ts';
import { a2aHttpInterfaces } from './bindings/http/paths.ts';
import { buildAgentCard, type CardInterface } from './card/build-card.ts';
import { HostError } from './errors.ts';
import type { SwitchboardAgentExecutor } from './executor/agent-executor.ts';
import { MemoryLimitCounters } from './middleware/limits/limit-counters.ts';
import { RedisLimitCounters } from './middleware/limits/redis-limit-counters.ts';
import type { HostLimits } from './middleware/limits/request-limits.ts';
import { checkWireIds } from './middleware/limits/wire-ids.ts';
import type { OperatorRoutes } from './operator-routes.ts';
import { bindingLayers } from './pipeline.ts';
import type { RunStateStore } from './runs/run-state-store.ts';
import type { StartableTaskLedger } from './runs/task-ledger.ts';
import { listenForCancels } from './tasks/cancel-listener.ts';
import type { TaskDirectory } from './tasks/task-directory.ts';
import type { RedisTaskEventLog } from './tasks/task-event-log.ts';

/**
 * Who may call a host and how they prove it. Without any, nothing is checked and the card declares
 * no security scheme. Every caller becomes a principal (see `PrincipalUser`); the queue serves only
 * services and requests a service makes on someone's behalf.
 */
export interface HostAuth {
  /** Static bearer tokens by kind: users, operators (also the `/admin` API), services. */
  tokens?: StaticTokens;
  /** More ways to authenticate, tried after the tokens: service assertions, your own. */
  authenticators?: readonly Authenticator[];
  /**
   * Accept an OAuth 2 / OpenID Connect identity provider's bearer JWTs too (see `jwtAuthenticator`),
   * tried last; the card then declares its OpenID Connect scheme next to the bearer one.
   */
  identityProvider?: JwtAuthenticatorOptions;
  /**
   * Only services call this agent (a team's worker, given no user or operator token): a refused
   * HTTP caller is told to send the request to the team's supervisor (default false).
   */
  servicesOnly?: boolean;
}

/** Where tasks and conversations live (each default: in memory, this process only). */
export interface HostStores {
  taskStore?: TaskStore;
  runState?: RunStateStore;
  intents?: IntentStore;
  /** Records runs no queue would recover; started over `taskStore` (which it needs) on `start()`. */
  ledger?: StartableTaskLedger;
  /**
   * Each task's events in a Redis Stream, so `SubscribeToTask` follows a task from any replica and
   * resumes after `Last-Event-ID` (see `RedisTaskEventLog`); its followers end on `close()`.
   */
  eventLog?: RedisTaskEventLog;
  /** Every user's tasks, for the operators' routes (`RedisTaskDirectory` over the task store's prefix). */
  directory?: TaskDirectory;
}

/** Options of {@link hostAgent}. */
export interface HostAgentOptions
  extends Omit<
    AgentHandlerOptions,
    'card' | 'taskStore' | 'runState' | 'intents' | 'ledger' | 'eventLog' | 'logger'
  > {
  /** The version the card publishes (default `0.1.0`, as `buildAgentCard`'s). */
  version?: string;
  /** The card's skills (default: one skill of the whole agent, as `buildAgentCard` makes). */
  skills?: readonly SkillSpec[];
  /**
   * Serve over HTTP (JSON-RPC, REST, card, health, and `/admin` with a board). `port` 0 (default) is
   * any free port; `publicUrl` is the base URL the card names (default: the URL it listens on).
   * Leave it out to serve over the queue only.
   */
  http?: {
    port?: number;
    host?: string;
    publicUrl?: string;
    readiness?: ReadinessCheck;
    /** The card a request without `A2A-Version` gets (default `hybrid`; see `createA2aHttpApp`). */
    unversionedCard?: UnversionedCardShape;
    /** More routes for operators beside `/admin` (the console), mounted only with an approval board. */
    operatorRoutes?: readonly OperatorRoutes[];
  };
  /**
   * Signs the card (A2A §8.4) before it is served or registered, e.g. `cardSigner({ key })` of
   * `@switchboard/cards` with the service's key (default: the card is not signed).
   */
  signCard?: (card: AgentCard) => Promise<AgentCard>;
  /**
   * Serve over a BullMQ queue too, each message run once whatever the queue delivers
   * (`deduplicateMessages`); only services (and requests they make on someone's behalf) are served.
   */
  queue?: {
    redis: RedisConnection;
    address: QueueAddress;
    lockDurationMs?: number;
    stalledIntervalMs?: number;
  };
  /** Who may call (default: anyone; the card then declares no security scheme). */
  auth?: HostAuth;
  stores?: HostStores;
  /**
   * Request limits per caller: message size and parts, requests per minute, tasks in flight (see
   * `HostLimits` for the defaults by kind of caller), on HTTP and the queue alike; counted in Redis
   * under the queue's prefix when there is a queue, else in this process.
   */
  limits?: HostLimits;
  /** Abort runs canceled on another replica: the channel `RedisTaskStore` publishes under `prefix`. */
  cancels?: { redis: RedisConnection; prefix: string };
  /** Keep an entry in the registry while started, with heartbeats. */
  registry?: { registry: AgentRegistry; instanceId: string; metadata?: Readonly<Record<string, string>> };
  /** Default: warnings and errors to stderr. */
  logger?: Logger;
}

/** A hosted agent with its servers; see {@link hostAgent}. */
export interface AgentHost {
  readonly hosted: AgentHandler;
  readonly card: AgentCard;
  /**
   * The HTTP server's app (an empty one without `http`): what you `use` before `start()` runs
   * before the A2A routes.
   */
  readonly app: Express;
  /** Where it is reached: the HTTP base URL it listens on, else its queue URL. */
  readonly url: string;
  /** Starts the ledger, the cancel listener and the queue consumer, registers, then opens the routes. Idempotent. */
  start(): Promise<void>;
  /**
   * Drains: leaves the registry, closes HTTP and the queue, lets running tasks finish for the rest
   * of `graceMs` (default 5000), cancels what is left, and stops the rest. Idempotent.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

/**
 * Hosts an agent: builds its card (naming the HTTP port it really listens on, and its queue),
 * composes it with `createAgentHandler`, and serves it over HTTP and/or a queue with the tokens,
 * stores, approvals board and registry entry it is given. The one composition of "host this
 * agent": the service, the in-process system, the bench and the tests all use it.
 *
 * The HTTP server listens at once (answering 503 until `start()`), so the card can name its port.
 *
 * @example
 * const host = await hostAgent({ agent, model, http: { port: 8080 }, auth: { tokens: { users: { [token]: 'u-1024' } } } });
 * await host.start();
 * // ... host.url ...
 * await host.close();
 */
export async function hostAgent({
  version,
  skills,
  http,
  queue,
  auth = {},
  stores = {},
  cancels,
  registry,
  limits = {},
  logger = stderrLogger(),
  signCard,
  ...agentOptions
}: HostAgentOptions): Promise<AgentHost> {
  const problems: string[] = [];
  if (!http && !queue) problems.push('give http, queue or both: where the agent is served');
  if (stores.ledger && !stores.taskStore)
    problems.push('stores.ledger needs the stores.taskStore it watches');
  if (problems.length > 0) {
    throw new HostError('INVALID_OPTIONS', {
      message: `hostAgent options are not valid: ${problems.join('; ')}.`,
    });
  }
  const authenticators = [
    ...(auth.tokens && hasStaticTokens(auth.tokens) ? [staticTokenAuthenticator(auth.tokens)] : []),
    ...(auth.authenticators ?? []),
    ...(auth.identityProvider ? [jwtAuthenticator({ ...auth.identityProvider, logger })] : []),
  ];
  const bearerAuth = authenticators.length > 0;
  const servicesOnly = bearerAuth && auth.servicesOnly === true;
  const authenticate = firstOf(authenticators);
  const server = http ? await listenFirst({ port: http.port, host: http.host }) : undefined;
  const interfaces: CardInterface[] = [
    ...(server ? a2aHttpInterfaces({ baseUrl: http?.publicUrl ?? server.url }) : []),
    ...(queue ? [{ url: queueUrl(queue.address), protocolBinding: BULLMQ_BINDING }] : []),
  ];
  let card: AgentCard;
  let hosted: AgentHandler;
  let served: { http: A2ARequestHandler; queue: A2ARequestHandler | undefined; close(): void };
  try {
    card = buildAgentCard({
      agent: agentOptions.agent,
      interfaces,
      bearerAuth,
      ...(auth.identityProvider
        ? { openIdConnectUrl: openIdConfigurationUrl(auth.identityProvider.issuer.trim()) }
        : {}),
      ...(version ? { version } : {}),
      ...(skills ? { skills } : {}),
    });
    if (signCard) card = await signCard(card);
    // The directory is the operators' (read across owners), not the handler's.
    const { directory: _directory, ...handlerStores } = stores;
    hosted = createAgentHandler({ ...agentOptions, card, ...handlerStores, logger });
    // The layers of each binding around the agent, in the order pipeline.ts states.
    const { counters, ...perCaller } = limits;
    served = bindingLayers({
      handler: hosted.requestHandler,
      limits: perCaller,
      counters:
        counters ??
        (queue
          ? new RedisLimitCounters({ redis: queue.redis, prefix: queue.address.prefix })
          : new MemoryLimitCounters()),
      queue: queue ? { redis: queue.redis, prefix: queue.address.prefix } : undefined,
      logger,
    });
  } catch (error) {
    await server?.close();
    throw error;
  }
  const queueServer = queue
    ? new A2aQueueServer({
        requestHandler: served.queue ?? served.http,
        card,
        address: queue.address,
        redis: queue.redis,
        // A job presents its exact request text and job id too: what a signed assertion is bound to,
        // and how a redelivered job is told from a replayed one.
        ...(bearerAuth ? { authenticate: queueAuthenticator({ authenticate, logger }) } : {}),
        ...(queue.lockDurationMs ? { lockDurationMs: queue.lockDurationMs } : {}),
        ...(queue.stalledIntervalMs ? { stalledIntervalMs: queue.stalledIntervalMs } : {}),
        // Ids as sent: the SDK's v1.0 reader would turn an object into "[object Object]".
        inspectRequest: checkWireIds,
        logger,
      })
    : undefined;

  const mountRoutes = () => {
    if (!server || !http) return;
    const app = createA2aHttpApp({
      requestHandler: served.http,
      card,
      ...(bearerAuth ? { auth: { authenticate, servicesOnly } } : {}),
      ...(http.readiness ? { readiness: http.readiness } : {}),
      ...(http.unversionedCard ? { unversionedCard: http.unversionedCard } : {}),
      logger,
    });
    if (agentOptions.approvals) {
      app.use(
        '/admin',
        adminApprovalsRouter({
          board: agentOptions.approvals,
          requestHandler: hosted.requestHandler,
          authenticate,
          logger,
        }),
      );
      for (const { path, routes } of http.operatorRoutes ?? []) {
        const side = {
          tasks: stores.directory,
          runs: stores.runState,
          events: stores.eventLog,
          board: agentOptions.approvals,
          requestHandler: hosted.requestHandler,
          authenticate,
          card,
          logger,
        };
        app.use(path, routes(side));
      }
    }
    server.app.use(app);
    server.open();
  };

  let started: Promise<void> | undefined;
  let cancelListener: { close(): Promise<void> } | undefined;
  let registration: Registration | undefined;
  const start = () => {
    started ??= (async () => {
      if (stores.ledger && stores.taskStore) await stores.ledger.start(stores.taskStore);
      if (cancels) cancelListener = await listenForCancels({ ...cancels, executor: hosted.executor, logger });
      await queueServer?.start();
      if (registry) {
        registration = await registry.registry.register({
          card,
          instanceId: registry.instanceId,
          ...(registry.metadata ? { metadata: { ...registry.metadata } } : {}),
        });
      }
      // Last: a 200 from /readyz then means every part has started, so a launcher that waits for
      // it never sends work to a host whose start can still fail.
      mountRoutes();
    })();
    return started;
  };

  let closing: Promise<void> | undefined;
  const close = ({ graceMs = 5_000 }: { graceMs?: number } = {}) => {
    closing ??= (async () => {
      await registration?.stop().catch(() => {});
      const begun = Date.now();
      // Followers first: their streams end (to resume elsewhere) rather than hold the server open.
      await stores.eventLog?.close();
      await server?.close();
      if (started) await queueServer?.close({ graceMs });
      // Runs that came over HTTP go on after their connection closed: give them the rest of the
      // grace, then cancel what is left, so no task is left "working" behind this host.
      await untilIdle(hosted.executor, graceMs - (Date.now() - begun));
      if (hosted.executor.runningTasks > 0) {
        logger.warn(
          { running: hosted.executor.abortAll() },
          'drain ran out of time; canceling the tasks left',
        );
        await untilIdle(hosted.executor, 5_000);
      }
      await cancelListener?.close();
      // Progress a store holds back (RedisTaskStore's progressDelayMs) is written before leaving.
      await flushable(stores.taskStore)
        ?.flush()
        .catch((error: unknown) => logger.warn({ err: error }, 'held task progress could not be saved'));
      if (started) await stores.ledger?.stop();
      served.close();
    })();
    return closing;
  };

  return {
    hosted,
    card,
    app: server?.app ?? express().disable('x-powered-by'),
    url: server?.url ?? (queue ? queueUrl(queue.address) : ''),
    start,
    close,
  };
}

/** Resolves when the executor runs no task, or after `ms`. */
async function untilIdle(executor: SwitchboardAgentExecutor, ms: number): Promise<void> {
  const deadline = Date.now() + Math.max(0, ms);
  while (executor.runningTasks > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A task store that holds some saves back and can write them now (`RedisTaskStore` is one). */
function flushable(store: TaskStore | undefined): { flush(): Promise<void> } | undefined {
  return store && 'flush' in store && typeof store.flush === 'function'
    ? (store as TaskStore & { flush(): Promise<void> })
    : undefined;
}
