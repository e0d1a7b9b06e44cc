/** The comms worker service. A bad setting stops it with the variable named (exit 2). */
import { COMMS_SKILLS, createCommsAgent, RedisShopStore } from '@switchboard/customer-service';
import { runWorkerService } from '@switchboard/service';

await runWorkerService({
  env: process.env,
  service: 'comms',
  defaultPort: 4103,
  setup: ({ redis, config, model }) => ({
    agent: createCommsAgent({ store: new RedisShopStore({ redis, prefix: config.namespace }), model }),
    skills: COMMS_SKILLS,
  }),
});
