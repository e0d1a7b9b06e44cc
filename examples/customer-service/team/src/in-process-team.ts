import { randomBytes } from 'node:crypto';
import { ClientFactory, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { type Agent, MemoryIntentStore } from '@switchboard/agent';
import {
  COMMS_SKILLS,
  createCommsAgent,
  createInventoryAgent,
  createOrdersAgent,
  INVENTORY_SKILLS,
  MemoryShopStore,
  ORDERS_SKILLS,
  seedShop,
} from '@switchboard/customer-service';
import { hostAgent } from '@switchboard/host';
import { actingForOwner, MemoryApprovalBoard } from '@switchboard/host/approvals';
import {
  generateServiceKey,
  MemoryReplayGuard,
  publicKeyOf,
  serviceAssertionAuthenticator,
  serviceSigner,
  trustedKeys,
} from '@switchboard/identity';
import { OfflineModel } from '@switchboard/offline-model';
import type { SkillSpec } from '@switchboard/protocol';
import { supervisorAgent } from '@switchboard/supervisor';
import {
  type InProcessTeam,
  type TeamAccess,
  type TeamInProcessOptions,
  tokensToIds,
  userTokens,
} from '@switchboard/team';
import { SHOP_USERS } from './shop-users.ts';
import { startTeamOnRedis } from './team-on-redis.ts';
import { withTools } from './with-tools.ts';

/** The shop in this process (see {@link startInProcessTeam}). */
export interface InProcessShop extends InProcessTeam {
  /** The shop's data, in memory. */
  readonly store: MemoryShopStore;
}

/**
 * The whole team in this process. With `redis`, the production way (`startTeamOnRedis`: every
 * service's own setup served by `runAgentService`, delegating over the queue binding); without it,
 * in memory over loopback HTTP (`startTeamInMemory`).
 */
export function startInProcessTeam(options: TeamInProcessOptions): Promise<InProcessTeam> {
  return options.redis ? startTeamOnRedis({ ...options, redis: options.redis }) : startTeamInMemory(options);
}

/**
 * The customer-service system in one process, for machines without Redis: every agent is an A2A
 * server on a loopback port, the supervisor delegates to the workers over A2A JSON-RPC on HTTP
 * instead of queues, and tasks, approvals and shop data live in memory (gone when it stops).
 */
export async function startTeamInMemory({
  port = 4100,
  model = () => new OfflineModel(),
  logger,
  audit,
  tool,
  hopTimeoutMs = 60_000,
}: TeamInProcessOptions): Promise<InProcessShop> {
  const secret = (label: string) => `${label}-${randomBytes(18).toString('base64url')}`;
  const keyOf = (service: string) => generateServiceKey({ service, label: 'in-process' }).privateKey;
  const supervisorKey = keyOf('supervisor');
  const access: TeamAccess = {
    supervisorUrl: '',
    ...userTokens(SHOP_USERS, () => secret('cust')),
    adminToken: secret('ops'),
    serviceKeys: {
      supervisor: supervisorKey,
      orders: keyOf('orders'),
      inventory: keyOf('inventory'),
      comms: keyOf('comms'),
    },
    redisUrl: 'redis://in-process.invalid:6379',
    namespace: 'in-process',
  };
  const store = new MemoryShopStore();
  // One intent store for every agent and task, as Redis is in a deployment: an action whose outcome
  // is unknown (it timed out) is never started again, whichever task asks.
  const intents = new MemoryIntentStore();
  await seedShop({ store });
  const closers: (() => Promise<void>)[] = [];
  const serve = async (
    agent: Agent,
    skills: readonly SkillSpec[] | undefined,
    listenPort: number,
    admin: boolean,
  ) => {
    // The workers take the supervisor's signed assertions (over HTTP: bound to the audience, short
    // lived and used once), which carry the customer the request is for.
    const peers = serviceAssertionAuthenticator({
      audience: agent.name,
      trustedKeys: trustedKeys({
        source: { kind: 'inline', keySet: { keys: Object.values(access.serviceKeys).map(publicKeyOf) } },
      }),
      replay: new MemoryReplayGuard(),
      delegators: ['supervisor'],
      logger,
    });
    const host = await hostAgent({
      agent,
      model: model(agent.name),
      ...(skills ? { skills } : {}),
      http: { port: listenPort, host: '127.0.0.1' },
      auth: {
        ...(admin
          ? {
              tokens: {
                users: tokensToIds(access.customers),
                operators: { [access.adminToken]: 'operator' },
              },
            }
          : {}),
        authenticators: [peers],
      },
      ownerResolver: actingForOwner(),
      ...(admin ? { approvals: new MemoryApprovalBoard() } : {}),
      ...(audit ? { audit } : {}),
      stores: { intents },
      logger,
    });
    closers.push(() => host.close());
    await host.start();
    if (admin) access.supervisorUrl = host.url;
    return host.card;
  };
  try {
    const workers = await Promise.all([
      serve(withTools(createOrdersAgent({ store }), tool), ORDERS_SKILLS, 0, false),
      serve(withTools(createInventoryAgent({ store }), tool), INVENTORY_SKILLS, 0, false),
      serve(withTools(createCommsAgent({ store, model: model('comms') }), tool), COMMS_SKILLS, 0, false),
    ]);
    const factory = new ClientFactory({ transports: [new JsonRpcTransportFactory()] });
    const supervisor = supervisorAgent({
      peers: workers,
      clientFor: (card) => factory.createFromAgentCard(card),
      signer: serviceSigner({
        key: supervisorKey,
        lifetimeMs: hopTimeoutMs,
      }),
      timeoutMs: hopTimeoutMs,
      logger,
    });
    await serve(supervisor.agent, supervisor.skills, port, true);
  } catch (error) {
    for (const close of closers) await close();
    throw error;
  }
  return {
    access,
    store,
    stop: async () => {
      for (const close of closers.reverse()) await close();
    },
  };
}
