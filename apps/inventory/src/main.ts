/** The inventory worker service. A bad setting stops it with the variable named (exit 2). */
import { createInventoryAgent, INVENTORY_SKILLS, RedisShopStore } from '@switchboard/customer-service';
import { ConfigError, runAgentService } from '@switchboard/service';
import { loadInventoryConfig } from './config.ts';

try {
  const config = loadInventoryConfig(process.env);
  await runAgentService({
    config,
    setup: ({ redis }) => {
      const store = new RedisShopStore({ redis, prefix: config.namespace });
      return { agent: createInventoryAgent({ store }), skills: INVENTORY_SKILLS };
    },
  });
} catch (error) {
  const message =
    error instanceof ConfigError
      ? error.message
      : `inventory failed to start: ${error instanceof Error ? error.message : String(error)}`;
  process.stderr.write(`${message}\n`);
  process.exit(2);
}
