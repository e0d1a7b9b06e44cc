export type { SupervisorConfig } from './config.js';
export { loadSupervisorConfig } from './config.js';
export { discoverWorkers } from './discover-workers.js';
