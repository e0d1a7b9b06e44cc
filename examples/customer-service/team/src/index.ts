export type { InProcessShop } from './in-process-team.ts';
export { startInProcessTeam, startTeamInMemory } from './in-process-team.ts';
export { SHOP_USERS } from './shop-users.ts';
export { default as customerServiceTeam } from './team.ts';
export { startTeamOnRedis } from './team-on-redis.ts';
