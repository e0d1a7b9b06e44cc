/** The inventory worker service. A bad setting stops it with the variable named (exit 2). */
import { createInventoryAgent, INVENTORY_SKILLS, RedisShopStore } from '@switchboard/customer-service';
import { runWorkerService } from '@switchboard/service';

await runWorkerService({
  env: process.env,
  service: 'inventory',
  defaultPort: 4102,
  setup: ({ redis, config }) => ({
    agent: createInventoryAgent({ store: new RedisShopStore({ redis, prefix: config.namespace }) }),
    skills: INVENTORY_SKILLS,
  }),
});
