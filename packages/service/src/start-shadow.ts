import type { QueueAddress } from '@switchboard/a2a-bullmq';
import type { Agent, AgentTracer, AuditSink, ChatModel, Logger } from '@switchboard/agent';
import { createModel } from '@switchboard/config';
import { shadowQueueAddress } from '@switchboard/delegate';
import { type AgentHost, hostAgent, type RunStateStore } from '@switchboard/host';
import type { Authenticator } from '@switchboard/identity';
import { duplicateConnection, type RedisConnection } from '@switchboard/redis';
import {
  ShadowCopyStream,
  ShadowPairStore,
  ShadowTap,
  type ShadowWorker,
  shadowAgent,
  startShadowWorker,
} from '@switchboard/shadow';
import type { ShadowConfig } from './config/shadow-config.ts';

/** A service's shadow: the tap its host copies through, and the worker that runs the copies. */
export interface ServiceShadow {
  tap: ShadowTap;
  /** For the startup log: what the shadow runs. */
  label: string;
  /**
   * Serves the shadow on the agent's shadow queue (`shadowQueueAddress`) for a shadow supervisor's
   * delegations, with the live queue's authenticators; its write and dangerous calls are logged, not run.
   */
  serveDelegations(options: {
    address: QueueAddress;
    authenticators: readonly Authenticator[];
    jobLockMs: number;
  }): Promise<void>;
  /** Stops serving delegations and the worker, and writes what the tap still holds. */
  close(): Promise<void>;
}

/**
 * Starts an agent's shadow in the service's process (see `ShadowConfig`): copies and pair records
 * under the agent's queue prefix, the candidate's model (or the live one) and prompt, and a worker
 * on a connection of its own.
 */
export function startShadow({
  config,
  agent,
  liveModel,
  redis,
  prefix,
  runState,
  audit,
  tracer,
  logger,
}: {
  config: ShadowConfig;
  /** The live agent, or a function giving the current one (a supervisor's, built from shadow cards). */
  agent: Agent | (() => Agent);
  liveModel: { model: ChatModel; label: string };
  redis: RedisConnection;
  prefix: string;
  runState: RunStateStore;
  audit: AuditSink;
  tracer: AgentTracer;
  logger: Logger;
}): ServiceShadow {
  const name = typeof agent === 'function' ? agent().name : agent.name;
  const copies = new ShadowCopyStream({ redis, prefix, agent: name });
  const pairs = new ShadowPairStore({ redis, prefix, retentionSeconds: config.retentionDays * 24 * 3600 });
  const tap = new ShadowTap({
    agent,
    candidate: config.candidate,
    liveModel: liveModel.model.modelId,
    share: config.share,
    copies,
    pairs,
    runState,
    logger,
  });
  const { model, label } = config.model ? createModel(config.model) : liveModel;
  const worker: ShadowWorker = startShadowWorker({
    agent,
    model,
    ...(config.instructions ? { candidate: { instructions: config.instructions } } : {}),
    copies,
    pairs,
    redis: duplicateConnection(redis, `${name}-shadow`),
    concurrency: config.concurrency,
    yieldAbove: config.yieldAbove,
    audit,
    tracer,
    logger,
  });
  const current = () => (typeof agent === 'function' ? agent() : agent);
  let host: AgentHost | undefined;
  return {
    tap,
    async serveDelegations({ address, authenticators, jobLockMs }) {
      host = await hostAgent({
        agent: shadowAgent({
          agent: current(),
          ...(config.instructions ? { candidate: { instructions: config.instructions } } : {}),
          record: (proposal) =>
            logger.info(
              { tool: proposal.tool, risk: proposal.risk, conversationId: proposal.conversationId },
              'shadow: a delegated write was recorded, not run',
            ),
        }),
        model,
        queue: {
          redis,
          address: shadowQueueAddress(address),
          lockDurationMs: jobLockMs,
          stalledIntervalMs: jobLockMs,
        },
        auth: { authenticators },
        audit,
        tracer,
        logger,
      });
      await host.start();
    },
    label: `${config.candidate} (${label}) on ${Math.round(config.share * 1000) / 10}% of new requests`,
    async close() {
      await host?.close();
      await worker.close();
      await tap.flush();
    },
  };
}
