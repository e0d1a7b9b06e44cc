import type { WorkerDefinition } from '@switchboard/team';
import type { AgentSetup, ServiceContext } from '../service-setup.ts';

/** A team's worker as its service serves it: its agent built from the service's context, its skills. */
export function workerSetup(worker: WorkerDefinition): (context: ServiceContext) => Promise<AgentSetup> {
  return async ({ config, model, logger, redis }) => {
    const context = { name: worker.name, namespace: config.namespace, model, logger, redis };
    return {
      agent: await worker.agent(context),
      ...(worker.skills ? { skills: worker.skills } : {}),
      ...(worker.router ? { router: await worker.router(context) } : {}),
    };
  };
}
