// A team as code: its supervisor and workers, its users, and what a launcher (`switchboard dev`,
// `switchboard eval`) needs of it to run it, in processes or in one process, with the environment
// each of its services gets. Running it is `@switchboard/service`'s (`serveTeamService`, `startTeamInProcess`).
export type {
  SupervisorDefinition,
  SupervisorOptions,
  WorkerContext,
  WorkerDefinition,
  WorkerOptions,
} from './definitions.ts';
export { defineSupervisor, defineWorker } from './definitions.ts';
export { SERVICE_RUNTIME, withServiceRuntime } from './service-runtime.ts';
export type {
  InProcessTeam,
  Team,
  TeamAccess,
  TeamInProcessOptions,
  TeamOptions,
  TeamSeedOptions,
  TeamSeedResult,
  TeamService,
  TeamUserFootprint,
  TeamUsers,
} from './team.ts';
export { defineTeam, teamServices, tokensToIds, userTokens } from './team.ts';
export { serviceKeyEnvironment, teamEnvironment } from './team-environment.ts';
