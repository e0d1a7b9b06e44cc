import { fileURLToPath } from 'node:url';
import { createOrdersAgent, ORDERS_SKILLS, RedisShopStore } from '@switchboard/customer-service';
import { defineWorker, type WorkerContext } from '@switchboard/team';

/** The shop in the service's Redis, under the team's namespace. */
function shopIn({ redis, namespace, name }: WorkerContext): RedisShopStore {
  if (!redis) throw new Error(`the ${name} worker keeps the shop in Redis: run it with Redis`);
  return new RedisShopStore({ redis, prefix: namespace });
}

/** The orders worker: its agent on the shop in Redis, its skills, its own main. */
export const ORDERS_WORKER = defineWorker({
  name: 'orders',
  port: 4101,
  agent: (context) => createOrdersAgent({ store: shopIn(context) }),
  skills: ORDERS_SKILLS,
  entry: fileURLToPath(new URL('./main.ts', import.meta.url)),
});
