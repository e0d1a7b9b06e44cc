// A team as code: what a launcher (`switchboard dev`, `switchboard eval`) needs of a team to run it, in
// processes or in one process, and the environment each of its services gets.
export type {
  InProcessTeam,
  Team,
  TeamAccess,
  TeamInProcessOptions,
  TeamSeedOptions,
  TeamSeedResult,
  TeamService,
  TeamUserFootprint,
  TeamUsers,
} from './team.ts';
export { defineTeam, teamServices, tokensToIds, userTokens } from './team.ts';
export { serviceKeyEnvironment, teamEnvironment } from './team-environment.ts';
