import { createInventoryAgent, INVENTORY_SKILLS, RedisShopStore } from '@switchboard/customer-service';
import type { AgentSetup, ServiceContext } from '@switchboard/service';

/** The inventory service's name and default port. */
export const INVENTORY_SERVICE = { service: 'inventory', defaultPort: 4102 } as const;

/** Builds the inventory agent on the shop in Redis: what its main and an in-process run both serve. */
export function inventorySetup({ redis, config }: ServiceContext): AgentSetup {
  return {
    agent: createInventoryAgent({ store: new RedisShopStore({ redis, prefix: config.namespace }) }),
    skills: INVENTORY_SKILLS,
  };
}
