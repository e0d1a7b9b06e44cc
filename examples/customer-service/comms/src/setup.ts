import { fileURLToPath } from 'node:url';
import { COMMS_SKILLS, createCommsAgent, RedisShopStore } from '@switchboard/customer-service';
import { defineWorker, type WorkerContext } from '@switchboard/team';

/** The shop in the service's Redis, under the team's namespace. */
function shopIn({ redis, namespace, name }: WorkerContext): RedisShopStore {
  if (!redis) throw new Error(`the ${name} worker keeps the shop in Redis: run it with Redis`);
  return new RedisShopStore({ redis, prefix: namespace });
}

/** The comms worker: its agent on the shop in Redis, its skills, its own main. */
export const COMMS_WORKER = defineWorker({
  name: 'comms',
  port: 4103,
  agent: (context) => createCommsAgent({ store: shopIn(context), model: context.model }),
  skills: COMMS_SKILLS,
  entry: fileURLToPath(new URL('./main.ts', import.meta.url)),
});
