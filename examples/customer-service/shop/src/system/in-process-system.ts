import { randomBytes } from 'node:crypto';
import { ClientFactory, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import {
  generateServiceKey,
  hostAgent,
  MemoryReplayGuard,
  publicKeyOf,
  type ServicePrivateKey,
  type SkillSpec,
  serviceAssertionAuthenticator,
  serviceSigner,
  trustedKeys,
} from '@switchboard/a2a';
import { actingForOwner, MemoryApprovalBoard } from '@switchboard/a2a/approvals';
import { delegationTools } from '@switchboard/a2a/delegate';
import {
  type Agent,
  type AnyTool,
  type AuditSink,
  type ChatModel,
  defineAgent,
  type Logger,
  MemoryIntentStore,
} from '@switchboard/agent';
import { OfflineModel } from '@switchboard/agent/offline';
import { createCommsAgent } from '../agents/comms/comms-agent.ts';
import { COMMS_SKILLS } from '../agents/comms/comms-skills.ts';
import { createInventoryAgent } from '../agents/inventory/inventory-agent.ts';
import { INVENTORY_SKILLS } from '../agents/inventory/inventory-skills.ts';
import { createOrdersAgent } from '../agents/orders/orders-agent.ts';
import { ORDERS_SKILLS } from '../agents/orders/orders-skills.ts';
import { createSupervisorAgent, supervisorSkills } from '../agents/supervisor/supervisor-agent.ts';
import { MemoryShopStore } from '../domain/memory-shop-store.ts';
import { seedShop } from '../fixtures/seed-shop.ts';
import { bundledShopFixture, DEFAULT_CUSTOMER, ShopFixture } from '../fixtures/shop-fixture.ts';

/** How a client reaches the system, and the secrets it was started with. */
export interface SystemAccess {
  supervisorUrl: string;
  /** The token of the customer the system is used as (`customerId`, by default the fixture's C001). */
  token: string;
  customerId: string;
  /** A token of every customer of the fixture, by customer id (`customerId`'s is `token`). */
  customers: Record<string, string>;
  /** An operator's token (operator `operator`). */
  adminToken: string;
  /**
   * Each service's private signing key, by service name (fresh for every start): what the services
   * sign their requests to each other with. A test signs its own requests with one.
   */
  serviceKeys: Record<string, ServicePrivateKey>;
  redisUrl: string;
  namespace: string;
}

/** The system running in this process. */
export interface InProcessSystem {
  readonly access: SystemAccess;
  readonly store: MemoryShopStore;
  stop(): Promise<void>;
}

/** Options of {@link startInProcessSystem}. */
export interface InProcessSystemOptions {
  /** The supervisor's port (default 4100; 0 for any free port). */
  port?: number;
  /** The model of each agent (default: the offline planner). */
  model?: (agent: string) => ChatModel;
  logger: Logger;
  /** Where every agent writes its audit records (tool calls, approval decisions). */
  audit?: AuditSink;
  /** Replaces a worker's tool, e.g. to inject a fault (a timeout, an error, malformed data). */
  tool?: (agent: string, tool: AnyTool) => AnyTool;
  /** Longest delegation (default 60 000 ms). */
  hopTimeoutMs?: number;
}

/**
 * A fresh token for every customer of the bundled shop, the default customer's also as `token`:
 * who a local system (in process, `switchboard dev`, the demo) can be used as.
 */
export function customerTokens(
  newToken: () => string,
): Pick<SystemAccess, 'token' | 'customerId' | 'customers'> {
  const ids = ShopFixture.parse(bundledShopFixture()).customers.map((customer) => customer.id);
  const customers = Object.fromEntries(ids.map((id) => [id, newToken()]));
  return { token: customers[DEFAULT_CUSTOMER] ?? newToken(), customerId: DEFAULT_CUSTOMER, customers };
}

/** Customer tokens as the static-token list wants them: token → customer id. */
export function tokensToIds(customers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(customers).map(([id, token]) => [token, id]));
}

/** The agent with each tool passed through `replace`, its prompt and permissions unchanged. */
function withTools(agent: Agent, replace: ((agent: string, tool: AnyTool) => AnyTool) | undefined): Agent {
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

/**
 * The customer-service system in one process, for machines without Redis: every agent is an A2A
 * server on a loopback port, the supervisor delegates to the workers over A2A JSON-RPC on HTTP
 * instead of queues, and tasks, approvals and shop data live in memory (gone when it stops).
 */
export async function startInProcessSystem({
  port = 4100,
  model = () => new OfflineModel(),
  logger,
  audit,
  tool,
  hopTimeoutMs = 60_000,
}: InProcessSystemOptions): Promise<InProcessSystem> {
  const secret = (label: string) => `${label}-${randomBytes(18).toString('base64url')}`;
  const keyOf = (service: string) => generateServiceKey({ service, label: 'in-process' }).privateKey;
  const supervisorKey = keyOf('supervisor');
  const access: SystemAccess = {
    supervisorUrl: '',
    ...customerTokens(() => secret('cust')),
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
                customers: tokensToIds(access.customers),
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
    const tools = delegationTools({
      peers: workers,
      clientFor: (card) => factory.createFromAgentCard(card),
      signer: serviceSigner({
        key: supervisorKey,
        lifetimeMs: hopTimeoutMs,
      }),
      timeoutMs: hopTimeoutMs,
      logger,
    });
    const supervisor = createSupervisorAgent({ tools });
    await serve(supervisor, supervisorSkills(supervisor), port, true);
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
