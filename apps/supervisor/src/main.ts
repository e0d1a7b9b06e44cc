/** The supervisor service. Configuration: see config.ts and docs; a bad setting stops it naming the variable. */
import type { Client } from '@a2a-js/sdk/client';
import { clientFromRegistryEntry, delegationTools } from '@switchboard/a2a';
import { createSupervisorAgent, supervisorSkills } from '@switchboard/customer-service';
import { ConfigError, runAgentService } from '@switchboard/service';
import { loadSupervisorConfig } from './config.js';
import { discoverWorkers } from './discover-workers.js';

try {
  const config = loadSupervisorConfig(process.env);
  await runAgentService({
    config,
    approvalsBoard: true,
    setup: async ({ registry, queue, logger }) => {
      const peers = await discoverWorkers({
        registry,
        names: config.workers,
        timeoutMs: config.discoveryTimeoutMs,
        logger,
      });
      const clients = new Map<string, Promise<Client>>();
      const tools = delegationTools({
        peers,
        timeoutMs: config.hopTimeoutMs,
        token: config.serviceToken,
        logger,
        clientFor: (card) => {
          let client = clients.get(card.name);
          if (!client) {
            client = clientFromRegistryEntry({ entry: { name: card.name, card, instances: [] }, queue });
            clients.set(card.name, client);
          }
          return client;
        },
      });
      logger.info(
        { peers: peers.map((card) => card.name), tools: tools.map((tool) => tool.name) },
        'delegation tools built',
      );
      const agent = createSupervisorAgent({ tools });
      const skills = supervisorSkills(agent);
      return { agent, ...(skills ? { skills } : {}) };
    },
  });
} catch (error) {
  process.stderr.write(
    `${error instanceof ConfigError ? error.message : `supervisor failed to start: ${error instanceof Error ? error.message : String(error)}`}\n`,
  );
  process.exit(2);
}
