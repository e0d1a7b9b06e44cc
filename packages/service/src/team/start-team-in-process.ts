import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { ClientFactory, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import {
  type Agent,
  type AnyTool,
  defineAgent,
  MemoryIntentStore,
  noopTracer,
  type ToolRouter,
} from '@switchboard/agent';
import { createModel } from '@switchboard/config';
import { supervisorAgent } from '@switchboard/delegate';
import { hostAgent, MemoryCostBook } from '@switchboard/host';
import { actingForOwner, MemoryApprovalBoard } from '@switchboard/host/approvals';
import {
  generateServiceKey,
  MemoryReplayGuard,
  publicKeyOf,
  serviceAssertionAuthenticator,
  serviceSigner,
  trustedKeys,
} from '@switchboard/identity';
import type { SkillSpec } from '@switchboard/protocol';
import { createRedisConnection, scanKeys } from '@switchboard/redis';
import {
  type InProcessTeam,
  serviceKeyEnvironment,
  type Team,
  type TeamAccess,
  type TeamInProcessOptions,
  teamEnvironment,
  teamServices,
  tokensToIds,
  userTokens,
} from '@switchboard/team';
import { loadServiceConfig, type ServiceConfig } from '../config/service-config.ts';
import { runAgentService } from '../run-agent-service.ts';
import type { RunningAgentService } from '../run-agent-service-options.ts';
import type { AgentSetup, ServiceContext } from '../service-setup.ts';
import { loadSupervisorConfig } from '../supervisor/supervisor-config.ts';
import { supervisorSetup } from '../supervisor/supervisor-setup.ts';
import { workerSetup } from './worker-setup.ts';

const secret = (label: string) => `${label}-${randomBytes(18).toString('base64url')}`;

/** A free loopback port: a service's card names its real port, so 0 will not do. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The agent with each tool replaced (`TeamInProcessOptions.tool`: a fault injected, a call recorded). */
export function withTools(
  agent: Agent,
  replace: ((agent: string, tool: AnyTool) => AnyTool) | undefined,
): Agent {
  if (!replace) return agent;
  return defineAgent({
    name: agent.name,
    description: agent.description,
    instructions: agent.instructions,
    tools: agent.toolset.list().map((tool) => replace(agent.name, tool)),
    permissions: { tools: [...agent.permitted] },
    modelSettings: agent.modelSettings,
  });
}

/** Fresh secrets for a run: a token per user, the operator's, a signing key per service. */
function freshAccess(team: Team, redisUrl: string, namespace: string): TeamAccess {
  return {
    supervisorUrl: '',
    ...userTokens(team.users, () => secret('user')),
    adminToken: secret('ops'),
    serviceKeys: Object.fromEntries(
      teamServices(team).map(({ name }) => [
        name,
        generateServiceKey({ service: name, label: 'in-process' }).privateKey,
      ]),
    ),
    redisUrl,
    namespace,
  };
}

/**
 * A whole team in this process: what `switchboard dev --in-process`, `switchboard eval` and a team's
 * own tests run. With `redis`, the production way (`startTeamOnRedis`); without it, in memory over
 * loopback HTTP (`startTeamInMemory`). A team with its own `startInProcess` runs that instead.
 *
 * @example
 * const running = await startTeamInProcess(team, { port: 0, logger: silentLogger() });
 * // running.access.supervisorUrl, running.access.token (the default user's), … then:
 * await running.stop();
 */
export function startTeamInProcess(team: Team, options: TeamInProcessOptions): Promise<InProcessTeam> {
  if (team.startInProcess) return team.startInProcess(options);
  return options.redis
    ? startTeamOnRedis(team, { ...options, redis: options.redis })
    : startTeamInMemory(team, options);
}

/**
 * The team in this process on Redis, the way production runs it: every service served by
 * `runAgentService` with the configuration its main would read and the setup its main serves, so
 * the supervisor delegates over the BullMQ queue binding with signed assertions and finds the
 * workers in the registry. It runs in a namespace of its own, seeded by the team's `seed` when it
 * has one and removed when it stops; spans are not exported.
 */
export async function startTeamOnRedis(
  team: Team,
  {
    port,
    logger,
    model,
    audit,
    tool,
    hopTimeoutMs = 60_000,
    redis: { url },
  }: TeamInProcessOptions & { redis: { url: string } },
): Promise<InProcessTeam> {
  const access = freshAccess(team, url, `in-process-${randomBytes(6).toString('hex')}`);
  const redis = createRedisConnection({ url });
  const telemetry = {
    tracer: noopTracer(),
    spanFile: undefined,
    traceUrl: () => undefined,
    shutdown: async () => {},
  };
  const envOf = async (service: string, listen: number) => ({
    ...teamEnvironment(access, { front: service === team.supervisor.name }),
    ...serviceKeyEnvironment(access, service),
    PORT: String(listen === 0 ? await freePort() : listen),
    SWITCHBOARD_HOP_TIMEOUT_MS: String(hopTimeoutMs),
  });
  const running: RunningAgentService[] = [];
  const serve = async (
    config: ServiceConfig,
    setup: (context: ServiceContext) => Promise<AgentSetup>,
    replace?: (agent: string, tool: AnyTool) => AnyTool,
  ) => {
    const service = await runAgentService({
      config,
      approvalsBoard: config.service === team.supervisor.name,
      handleSignals: false,
      telemetry,
      logger,
      ...(model ? { model: model(config.service) } : {}),
      ...(audit ? { audit } : {}),
      setup: async (context) => {
        const built = await setup(context);
        return replace ? { ...built, agent: withTools(built.agent, replace) } : built;
      },
    });
    running.push(service);
    return service;
  };
  let stopping: Promise<void> | undefined;
  const stopAll = async () => {
    for (const service of running.reverse()) await service.close();
    // One key a call: on a Redis Cluster the run's keys live in several slots.
    for await (const keys of scanKeys(redis, `*${access.namespace}*`))
      await Promise.all(keys.map((key) => redis.unlink(key)));
    await redis.quit();
  };
  const stop = () => (stopping ??= stopAll());
  try {
    if (team.seed) {
      const seeded = await team.seed({ redis, namespace: access.namespace });
      if (seeded.kind === 'invalid')
        throw new Error(`The ${team.title}'s data is not valid: ${seeded.message}`);
    }
    await Promise.all(
      team.workers.map(async (worker) =>
        serve(
          loadServiceConfig({
            env: await envOf(worker.name, 0),
            service: worker.name,
            defaultPort: worker.port,
          }),
          workerSetup(worker),
          tool,
        ),
      ),
    );
    const { supervisor } = team;
    const config = loadSupervisorConfig(await envOf(supervisor.name, port), {
      service: supervisor.name,
      workers: team.workers.map((worker) => worker.name),
    });
    access.supervisorUrl = (await serve(config, supervisorSetup(config, supervisor))).url;
  } catch (error) {
    await stop();
    throw error;
  }
  return { access, stop };
}

/**
 * The team in this process without Redis: every agent an A2A server on a loopback port, the
 * supervisor delegating to the workers over A2A JSON-RPC on HTTP instead of queues (with the same
 * signed, audience-bound, once-only assertions), tasks and approvals in memory, gone when it stops.
 * Each worker's `agent` gets `redis: undefined`.
 */
export async function startTeamInMemory(
  team: Team,
  {
    port = team.supervisor.port,
    model = () => createModel({ kind: 'offline' }).model,
    logger,
    audit,
    tool,
    hopTimeoutMs = 60_000,
  }: TeamInProcessOptions,
): Promise<InProcessTeam> {
  const access = freshAccess(team, 'redis://in-process.invalid:6379', 'in-process');
  // One intent store for every agent and task, as Redis is in a deployment: an action whose outcome
  // is unknown (it timed out) is never started again, whichever task asks.
  const intents = new MemoryIntentStore();
  // The supervisor's root requests, per agent per day, for its console.
  const costs = new MemoryCostBook();
  const closers: (() => Promise<void>)[] = [];
  const serve = async (
    agent: Agent,
    skills: readonly SkillSpec[] | undefined,
    listenPort: number,
    front: boolean,
    router?: ToolRouter,
  ) => {
    // The workers take the supervisor's signed assertions, which carry the user the request is for.
    const peers = serviceAssertionAuthenticator({
      audience: agent.name,
      trustedKeys: trustedKeys({
        source: { kind: 'inline', keySet: { keys: Object.values(access.serviceKeys).map(publicKeyOf) } },
      }),
      replay: new MemoryReplayGuard(),
      delegators: [team.supervisor.name],
      logger,
    });
    // The console only at the front; it is imported then, so a process without one never loads it.
    const operatorRoutes = front
      ? [await import('@switchboard/console').then(({ consoleRoutes }) => consoleRoutes({ costBook: costs }))]
      : undefined;
    const host = await hostAgent({
      agent,
      model: model(agent.name),
      ...(skills ? { skills } : {}),
      ...(router ? { router } : {}),
      http: { port: listenPort, host: '127.0.0.1', ...(operatorRoutes ? { operatorRoutes } : {}) },
      auth: {
        ...(front
          ? {
              tokens: {
                users: tokensToIds(access.users),
                operators: { [access.adminToken]: 'operator' },
              },
            }
          : {}),
        authenticators: [peers],
      },
      ownerResolver: actingForOwner(),
      ...(front ? { approvals: new MemoryApprovalBoard(), costBook: costs } : {}),
      ...(audit ? { audit } : {}),
      stores: { intents },
      logger,
    });
    closers.push(() => host.close());
    await host.start();
    if (front) access.supervisorUrl = host.url;
    return host.card;
  };
  try {
    const cards = await Promise.all(
      team.workers.map(async (worker) => {
        const context = {
          name: worker.name,
          namespace: access.namespace,
          model: model(worker.name),
          logger,
          redis: undefined,
        };
        const agent = await worker.agent(context);
        const router = await worker.router?.(context);
        return serve(withTools(agent, tool), worker.skills, 0, false, router);
      }),
    );
    const factory = new ClientFactory({ transports: [new JsonRpcTransportFactory()] });
    const supervisor = supervisorAgent(team.supervisor, {
      peers: cards,
      clientFor: (card) => factory.createFromAgentCard(card),
      signer: serviceSigner({
        key: access.serviceKeys[team.supervisor.name] ?? missingKey(),
        lifetimeMs: hopTimeoutMs,
      }),
      timeoutMs: hopTimeoutMs,
      logger,
    });
    await serve(supervisor.agent, supervisor.skills, port, true);
  } catch (error) {
    for (const close of closers.reverse()) await close();
    throw error;
  }
  return {
    access,
    stop: async () => {
      for (const close of closers.reverse()) await close();
    },
  };
}

function missingKey(): never {
  throw new Error('no signing key was made for the supervisor');
}
