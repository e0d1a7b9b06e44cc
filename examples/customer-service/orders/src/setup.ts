import { createOrdersAgent, ORDERS_SKILLS, RedisShopStore } from '@switchboard/customer-service';
import type { AgentSetup, ServiceContext } from '@switchboard/service';

/** The orders service's name and default port. */
export const ORDERS_SERVICE = { service: 'orders', defaultPort: 4101 } as const;

/** Builds the orders agent on the shop in Redis: what its main and an in-process run both serve. */
export function ordersSetup({ redis, config }: ServiceContext): AgentSetup {
  return {
    agent: createOrdersAgent({ store: new RedisShopStore({ redis, prefix: config.namespace }) }),
    skills: ORDERS_SKILLS,
  };
}
