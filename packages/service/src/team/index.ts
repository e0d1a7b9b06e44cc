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
