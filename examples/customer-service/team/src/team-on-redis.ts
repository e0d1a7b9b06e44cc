import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { type AnyTool, noopTracer } from '@switchboard/agent';
import { COMMS_SERVICE, commsSetup } from '@switchboard/comms/setup';
import { RedisShopStore, seedShop } from '@switchboard/customer-service';
import { generateServiceKey } from '@switchboard/identity';
import { INVENTORY_SERVICE, inventorySetup } from '@switchboard/inventory/setup';
import { ORDERS_SERVICE, ordersSetup } from '@switchboard/orders/setup';
import { createRedisConnection, scanKeys } from '@switchboard/redis';
import {
  type AgentSetup,
  loadServiceConfig,
  type RunningAgentService,
  runAgentService,
  type ServiceConfig,
  type ServiceContext,
} from '@switchboard/service';
import { loadSupervisorConfig, supervisorSetup } from '@switchboard/supervisor';
import {
  type InProcessTeam,
  serviceKeyEnvironment,
  type TeamAccess,
  type TeamInProcessOptions,
  teamEnvironment,
  userTokens,
} from '@switchboard/team';
import { SHOP_USERS } from './shop-users.ts';
import { withTools } from './with-tools.ts';

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

const WORKERS = [
  { ...ORDERS_SERVICE, setup: ordersSetup },
  { ...INVENTORY_SERVICE, setup: inventorySetup },
  { ...COMMS_SERVICE, setup: commsSetup },
] as const;

/**
 * The shop in this process on Redis, the way production runs it: every service served by
 * `runAgentService` with the configuration its main would read (`loadServiceConfig`,
 * `loadSupervisorConfig`) and the setup its main serves (`ordersSetup`, …, `supervisorSetup`), so the
 * supervisor delegates over the BullMQ queue binding with signed assertions and finds the workers
 * in the registry. It runs in a namespace of its own, seeded from the bundled shop and removed when
 * it stops; one telemetry for the process (none: spans are not exported).
 */
export async function startTeamOnRedis({
  port,
  logger,
  model,
  audit,
  tool,
  hopTimeoutMs = 60_000,
  redis: { url },
}: TeamInProcessOptions & { redis: { url: string } }): Promise<InProcessTeam> {
  const secret = (label: string) => `${label}-${randomBytes(18).toString('base64url')}`;
  const names = ['supervisor', ...WORKERS.map((worker) => worker.service)];
  const access: TeamAccess = {
    supervisorUrl: '',
    ...userTokens(SHOP_USERS, () => secret('cust')),
    adminToken: secret('ops'),
    serviceKeys: Object.fromEntries(
      names.map((name) => [name, generateServiceKey({ service: name, label: 'in-process' }).privateKey]),
    ),
    redisUrl: url,
    namespace: `in-process-${randomBytes(6).toString('hex')}`,
  };
  const redis = createRedisConnection({ url });
  await seedShop({ store: new RedisShopStore({ redis, prefix: access.namespace }) });
  const telemetry = {
    tracer: noopTracer(),
    spanFile: undefined,
    traceUrl: () => undefined,
    shutdown: async () => {},
  };
  const envOf = async (service: string, listen: number) => ({
    ...teamEnvironment(access),
    ...serviceKeyEnvironment(access, service),
    PORT: String(listen === 0 ? await freePort() : listen),
    SWITCHBOARD_HOP_TIMEOUT_MS: String(hopTimeoutMs),
  });
  const running: RunningAgentService[] = [];
  const serve = async (
    config: ServiceConfig,
    setup: (context: ServiceContext) => Promise<AgentSetup> | AgentSetup,
    replace?: (agent: string, tool: AnyTool) => AnyTool,
  ) => {
    const service = await runAgentService({
      config,
      approvalsBoard: config.service === 'supervisor',
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
  const stop = () => (stopping ??= stopAll());
  const stopAll = async () => {
    for (const service of running.reverse()) await service.close();
    // One key a call: on a Redis Cluster the run's keys live in several slots.
    for await (const keys of scanKeys(redis, `*${access.namespace}*`))
      await Promise.all(keys.map((key) => redis.unlink(key)));
    await redis.quit();
  };
  try {
    await Promise.all(
      WORKERS.map(async ({ service, defaultPort, setup }) =>
        serve(loadServiceConfig({ env: await envOf(service, 0), service, defaultPort }), setup, tool),
      ),
    );
    const config = loadSupervisorConfig(await envOf('supervisor', port));
    access.supervisorUrl = (await serve(config, supervisorSetup(config))).url;
  } catch (error) {
    await stop();
    throw error;
  }
  return { access, stop };
}
