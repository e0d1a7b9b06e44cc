/** The orders worker service. A bad setting stops it with the variable named (exit 2). */
import { createOrdersAgent, ORDERS_SKILLS, RedisShopStore } from '@switchboard/customer-service';
import { ConfigError, runAgentService } from '@switchboard/service';
import { loadOrdersConfig } from './config.ts';

try {
  const config = loadOrdersConfig(process.env);
  await runAgentService({
    config,
    setup: ({ redis }) => {
      const store = new RedisShopStore({ redis, prefix: config.namespace });
      return { agent: createOrdersAgent({ store }), skills: ORDERS_SKILLS };
    },
  });
} catch (error) {
  const message =
    error instanceof ConfigError
      ? error.message
      : `orders failed to start: ${error instanceof Error ? error.message : String(error)}`;
  process.stderr.write(`${message}\n`);
  process.exit(2);
}
