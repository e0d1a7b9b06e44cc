/** The supervisor service. A bad setting stops it with the variable named (exit 2). */
import { serviceOfKeyId, trustedKeys } from '@switchboard/a2a';
import { supervisorSkills } from '@switchboard/customer-service';
import { runAgentService, runServiceMain } from '@switchboard/service';
import { loadSupervisorConfig } from './config.ts';
import { discoverWorkers } from './discover-workers.ts';
import { onceEach } from './worker-cards.ts';
import { WorkerTools } from './worker-tools.ts';

const REFRESH_MS = 10_000;

await runServiceMain({
  service: 'supervisor',
  start: () => {
    const config = loadSupervisorConfig(process.env);
    return runAgentService({
      config,
      approvalsBoard: true,
      setup: async ({ registry, queue, signer, logger }) => {
        // Each worker's card must be signed by its own service's key, from the trusted set.
        const signatures = {
          keys: trustedKeys({ source: config.trustedKeys, logger }).resolve,
          policy: config.peerCards,
          mayCardSign: (agent: string, kid: string) => serviceOfKeyId(kid) === agent,
        };
        const cardLogger = onceEach(logger);
        const peers = await discoverWorkers({
          registry,
          names: config.workers,
          timeoutMs: config.discoveryTimeoutMs,
          logger: cardLogger,
          signatures,
        });
        const workers = new WorkerTools(
          {
            registry,
            queue,
            names: config.workers,
            hopTimeoutMs: config.hopTimeoutMs,
            workerWaitMs: config.workerWaitMs,
            signer,
            signatures,
            logger,
            cardLogger,
          },
          peers,
        );
        const timer = setInterval(() => {
          workers
            .refresh()
            .catch((error: unknown) =>
              logger.warn({ err: error }, 'could not refresh the workers from the registry'),
            );
        }, REFRESH_MS);
        timer.unref();
        const skills = supervisorSkills(workers.agent);
        return {
          agent: workers.agent,
          currentAgent: () => workers.agent,
          shadowAgent: () => workers.shadowAgent,
          ...(skills ? { skills } : {}),
          close: async () => clearInterval(timer),
        };
      },
    });
  },
});
