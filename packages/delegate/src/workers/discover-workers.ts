import type { AgentCard } from '@a2a-js/sdk';
import type { Logger } from '@switchboard/agent';
import type { PeerCardSignatures } from '../accept-signed-peer-cards.ts';
import type { AgentRegistry } from '../registry/agent-registry.ts';
import { findWorkers, workerCards } from './worker-cards.ts';

/**
 * The workers' cards from the registry, accepted one by one (a bad card is logged and left out).
 * Waits up to `timeoutMs` for every name in `names`; then goes on with those found, naming the
 * missing ones in the log, so one worker that is down does not keep the supervisor from serving.
 */
export async function discoverWorkers({
  registry,
  names,
  timeoutMs,
  logger,
  signatures,
  signal,
}: {
  registry: AgentRegistry;
  names: readonly string[];
  timeoutMs: number;
  /** Where missing workers and refused cards are reported (e.g. `onceEach(logger)`, shared with `WorkerTools`). */
  logger: Pick<Logger, 'warn'>;
  /** Check the workers' card signatures against the trusted keys (see `workerCards`). */
  signatures?: PeerCardSignatures;
  signal?: AbortSignal;
}): Promise<AgentCard[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { entries, missing } = await findWorkers({ registry, names });
    if (missing.length === 0 || Date.now() >= deadline || signal?.aborted) {
      if (missing.length > 0)
        logger.warn(
          { missing },
          `workers not found in the registry: ${missing.join(', ')}; serving without them`,
        );
      return workerCards({ entries, logger, ...(signatures ? { signatures } : {}) });
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
