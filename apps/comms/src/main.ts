/** The comms worker service. A bad setting stops it with the variable named (exit 2). */
import { COMMS_SKILLS, createCommsAgent, RedisShopStore } from '@switchboard/customer-service';
import { ConfigError, runAgentService } from '@switchboard/service';
import { loadCommsConfig } from './config.ts';

try {
  const config = loadCommsConfig(process.env);
  await runAgentService({
    config,
    setup: ({ redis, model }) => {
      const store = new RedisShopStore({ redis, prefix: config.namespace });
      return { agent: createCommsAgent({ store, model }), skills: COMMS_SKILLS };
    },
  });
} catch (error) {
  const message =
    error instanceof ConfigError
      ? error.message
      : `comms failed to start: ${error instanceof Error ? error.message : String(error)}`;
  process.stderr.write(`${message}\n`);
  process.exit(2);
}
