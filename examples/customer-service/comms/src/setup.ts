import { COMMS_SKILLS, createCommsAgent, RedisShopStore } from '@switchboard/customer-service';
import type { AgentSetup, ServiceContext } from '@switchboard/service';

/** The comms service's name and default port. */
export const COMMS_SERVICE = { service: 'comms', defaultPort: 4103 } as const;

/** Builds the comms agent on the shop in Redis: what its main and an in-process run both serve. */
export function commsSetup({ redis, config, model }: ServiceContext): AgentSetup {
  return {
    agent: createCommsAgent({ store: new RedisShopStore({ redis, prefix: config.namespace }), model }),
    skills: COMMS_SKILLS,
  };
}
