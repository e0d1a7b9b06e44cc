import { randomBytes } from 'node:crypto';
import { ClientFactory, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import {
  a2aHttpInterfaces,
  actingForOwner,
  adminApprovalsRouter,
  buildAgentCard,
  createA2aHttpApp,
  createHostedAgent,
  delegationTools,
  MemoryApprovalBoard,
  type SkillSpec,
  startA2aHttpServer,
} from '@switchboard/a2a';
import { type Agent, type ChatModel, type Logger, OfflineModel } from '@switchboard/agent';
import {
  COMMS_SKILLS,
  createCommsAgent,
  createInventoryAgent,
  createOrdersAgent,
  createSupervisorAgent,
  INVENTORY_SKILLS,
  MemoryShopStore,
  ORDERS_SKILLS,
  seedShop,
  supervisorSkills,
} from '@switchboard/customer-service';
import express from 'express';
import type { SystemAccess } from './launch-system.js';

const SERVICE_USER = 'switchboard-service';

/** The system running in this process. */
export interface InProcessSystem {
  readonly access: SystemAccess;
  readonly store: MemoryShopStore;
  stop(): Promise<void>;
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
}: {
  port?: number;
  /** The model of each agent (default: the offline planner). */
  model?: (agent: string) => ChatModel;
  logger: Logger;
}): Promise<InProcessSystem> {
  const secret = (label: string) => `${label}-${randomBytes(18).toString('base64url')}`;
  const access: SystemAccess = {
    supervisorUrl: `http://127.0.0.1:${port}`,
    token: secret('cust'),
    adminToken: secret('ops'),
    serviceToken: secret('svc'),
    redisUrl: 'redis://in-process.invalid:6379',
    namespace: 'in-process',
  };
  const store = new MemoryShopStore();
  await seedShop({ store });
  const closers: (() => Promise<void>)[] = [];
  const serve = async (
    agent: Agent,
    skills: readonly SkillSpec[] | undefined,
    listenPort: number,
    admin: boolean,
  ) => {
    const shell = express();
    const server = await startA2aHttpServer({ app: shell, port: listenPort, host: '127.0.0.1' });
    closers.push(() => server.close());
    const card = buildAgentCard({
      agent,
      interfaces: a2aHttpInterfaces({ baseUrl: server.url }),
      bearerAuth: true,
      ...(skills ? { skills } : {}),
    });
    const board = admin ? new MemoryApprovalBoard() : undefined;
    const hosted = createHostedAgent({
      agent,
      model: model(agent.name),
      card,
      ownerResolver: actingForOwner(),
      canApprove: (user) => user?.userName === 'operator' || user?.userName === SERVICE_USER,
      ...(board ? { approvals: board } : {}),
      logger,
    });
    const app = createA2aHttpApp({
      requestHandler: hosted.requestHandler,
      card,
      auth: {
        bearerTokens: admin
          ? {
              [access.token]: 'customer',
              [access.adminToken]: 'operator',
              [access.serviceToken]: SERVICE_USER,
            }
          : { [access.serviceToken]: SERVICE_USER },
      },
      logger,
    });
    if (board) {
      app.use(
        '/admin',
        adminApprovalsRouter({
          board,
          requestHandler: hosted.requestHandler,
          operatorTokens: { [access.adminToken]: 'operator' },
          logger,
        }),
      );
    }
    shell.use(app);
    return card;
  };
  try {
    const workers = await Promise.all([
      serve(createOrdersAgent({ store }), ORDERS_SKILLS, 0, false),
      serve(createInventoryAgent({ store }), INVENTORY_SKILLS, 0, false),
      serve(createCommsAgent({ store, model: model('comms') }), COMMS_SKILLS, 0, false),
    ]);
    const factory = new ClientFactory({ transports: [new JsonRpcTransportFactory()] });
    const tools = delegationTools({
      peers: workers,
      clientFor: (card) => factory.createFromAgentCard(card),
      token: access.serviceToken,
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
