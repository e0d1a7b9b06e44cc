/** The orders worker service. A bad setting stops it with the variable named (exit 2). */
import { createOrdersAgent, ORDERS_SKILLS, RedisShopStore } from '@switchboard/customer-service';
import { runWorkerService } from '@switchboard/service';

await runWorkerService({
  env: process.env,
  service: 'orders',
  defaultPort: 4101,
  setup: ({ redis, config }) => ({
    agent: createOrdersAgent({ store: new RedisShopStore({ redis, prefix: config.namespace }) }),
    skills: ORDERS_SKILLS,
  }),
});
