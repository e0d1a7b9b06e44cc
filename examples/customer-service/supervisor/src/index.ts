export type { SupervisorConfig } from './config.ts';
export { loadSupervisorConfig } from './config.ts';
export { discoverWorkers } from './discover-workers.ts';
