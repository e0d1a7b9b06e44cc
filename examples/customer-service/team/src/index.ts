export type { InProcessShop } from './in-process-team.ts';
export { startTeamInMemory } from './in-process-team.ts';
export { SHOP_USERS } from './shop-users.ts';
export { default as customerServiceTeam, startInProcessTeam } from './team.ts';
