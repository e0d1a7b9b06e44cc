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
import { startTeamInMemory as startInMemory } from '@switchboard/service';
import { defineWorker, type InProcessTeam, type Team, type TeamInProcessOptions } from '@switchboard/team';

/** The shop in this process (see {@link startTeamInMemory}). */
export interface InProcessShop extends InProcessTeam {
  /** The shop's data, in memory. */
  readonly store: MemoryShopStore;
}

/**
 * The customer-service system in one process, for machines without Redis, as the platform runs any
 * team in memory (`startTeamInMemory` of `@switchboard/service`): every agent an A2A server on a
 * loopback port, the supervisor delegating over A2A JSON-RPC on HTTP; the workers share one shop in
 * memory, seeded from the bundled fixture (gone when it stops).
 */
export async function startTeamInMemory(team: Team, options: TeamInProcessOptions): Promise<InProcessShop> {
  const store = new MemoryShopStore();
  await seedShop({ store });
  const workers = [
    defineWorker({ name: 'orders', agent: () => createOrdersAgent({ store }), skills: ORDERS_SKILLS }),
    defineWorker({
      name: 'inventory',
      agent: () => createInventoryAgent({ store }),
      skills: INVENTORY_SKILLS,
    }),
    defineWorker({
      name: 'comms',
      agent: ({ model }) => createCommsAgent({ store, model }),
      skills: COMMS_SKILLS,
    }),
  ];
  const running = await startInMemory({ ...team, workers }, options);
  return { ...running, store };
}
