import { discoverWorkers, onceEach, type SupervisorSpec, WorkerTools } from '@switchboard/delegate';
import { serviceOfKeyId, trustedKeys } from '@switchboard/identity';
import type { AgentSetup, ServiceContext } from '../service-setup.ts';
import type { SupervisorConfig } from './supervisor-config.ts';

/** How often the supervisor re-reads the workers' cards from the registry. */
const REFRESH_MS = 10_000;

/**
 * A supervisor service's composition, the one place a supervisor is assembled: finds the workers
 * in the registry (each card signed by its own service's key from the trusted set, as
 * `config.peerCards` asks), builds the supervisor `spec` describes over delegation tools on their
 * queues (`WorkerTools`, refreshed every 10 s, a delegation waiting for a live replica), and its
 * shadow. `runSupervisorService` and an in-process run of a team both serve it with `runAgentService`.
 *
 * @example
 * await runAgentService({ config, approvalsBoard: true, setup: supervisorSetup(config, spec) });
 */
export function supervisorSetup(
  config: SupervisorConfig,
  spec: SupervisorSpec,
): (context: ServiceContext) => Promise<AgentSetup> {
  return async ({ registry, queue, signer, logger }) => {
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
        supervisor: { ...spec, name: config.service },
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
    // The card's skills follow the workers: a worker found later changes them on the next card read.
    const skills = spec.skills?.(workers.agent);
    return {
      agent: workers.agent,
      currentAgent: () => workers.agent,
      shadowAgent: () => workers.shadowAgent,
      ...(skills ? { skills } : {}),
      close: async () => clearInterval(timer),
    };
  };
}
