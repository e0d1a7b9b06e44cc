export type { SupervisorConfig } from './config.ts';
export { loadSupervisorConfig } from './config.ts';
export { discoverWorkers } from './discover-workers.ts';
export { supervisorAgent } from './supervisor-agent.ts';
export { supervisorSetup } from './supervisor-setup.ts';
