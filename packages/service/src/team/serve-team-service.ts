import type { Team } from '@switchboard/team';
import { runServiceMain } from '../run-service-main.ts';
import { runWorkerService } from '../run-worker-service.ts';
import { runSupervisorService } from '../supervisor/run-supervisor-service.ts';
import { workerSetup } from './worker-setup.ts';

/** Options of {@link serveTeamService}. */
export interface ServeTeamServiceOptions {
  team: Team;
  /** Which of its services this process is: a worker's name, or the supervisor's. */
  service: string;
  /** The environment the settings are read from: the main passes `process.env`. */
  env: NodeJS.ProcessEnv;
}

/**
 * The main of one service of a team: the worker or the supervisor the team defines, served with the
 * settings in `env` (`runWorkerService`, `runSupervisorService`, the supervisor delegating to the
 * team's workers). What `switchboard dev --team` runs in each process, and what a deployment runs.
 * A name the team does not have stops the process (exit 2) with the names it has.
 *
 * @example
 * // services.ts: node services.ts flights
 * import team from './team.ts';
 * await serveTeamService({ team, service: process.argv[2] ?? '', env: process.env });
 */
export function serveTeamService({ team, service, env }: ServeTeamServiceOptions): Promise<void> {
  const worker = team.workers.find((each) => each.name === service);
  if (worker) return runWorkerService({ env, service, defaultPort: worker.port, setup: workerSetup(worker) });
  if (team.supervisor.name === service)
    return runSupervisorService({
      env,
      ...team.supervisor,
      workers: team.workers.map((each) => each.name),
      defaultPort: team.supervisor.port,
    });
  const names = [team.supervisor.name, ...team.workers.map((each) => each.name)];
  return runServiceMain({
    service: service || 'service',
    start: async () => {
      throw new Error(`the ${team.title} has no service "${service}"; its services are ${names.join(', ')}`);
    },
  });
}
