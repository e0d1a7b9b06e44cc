export { freePort } from './free-port.ts';
export { commandOf, groupMembers, isRunning } from './group-members.ts';
export type { GroupProcess, SpawnGroupOptions, StopOptions, WaitForLineOptions } from './spawn-group.ts';
export { spawnGroup } from './spawn-group.ts';
