// The settings readers moved to @switchboard/config; these re-exports of them go in the next release.
export type { ConfigProblem, ModelConfig } from '@switchboard/config';
export {
  ConfigError,
  createModel,
  DEFAULT_OPENAI_MODEL,
  readModelConfig,
  readRedisConfig,
} from '@switchboard/config';
export type { CardConfig } from './config/card-config.ts';
export type { LoadServiceConfigOptions, ServiceConfig } from './config/service-config.ts';
export { loadServiceConfig } from './config/service-config.ts';
export type { ExitWithParentOptions, ParentWatch } from './exit-with-parent.ts';
export { DrainTimeoutError, exitWithParent, watchParent } from './exit-with-parent.ts';
export { LogAuditSink } from './log-audit-sink.ts';
export { runAgentService } from './run-agent-service.ts';
export type { RunAgentServiceOptions, RunningAgentService } from './run-agent-service-options.ts';
export type { RunServiceMainOptions } from './run-service-main.ts';
export { runServiceMain } from './run-service-main.ts';
export type { RunWorkerServiceOptions } from './run-worker-service.ts';
export { runWorkerService } from './run-worker-service.ts';
export type { AgentSetup, ServiceContext } from './service-setup.ts';
export type { RunSupervisorServiceOptions } from './supervisor/run-supervisor-service.ts';
export { runSupervisorService } from './supervisor/run-supervisor-service.ts';
export type { SupervisorConfig, SupervisorConfigDefaults } from './supervisor/supervisor-config.ts';
export { loadSupervisorConfig } from './supervisor/supervisor-config.ts';
export { supervisorSetup } from './supervisor/supervisor-setup.ts';
export type { ServeTeamServiceOptions } from './team/serve-team-service.ts';
export { serveTeamService } from './team/serve-team-service.ts';
export {
  startTeamInMemory,
  startTeamInProcess,
  startTeamOnRedis,
  withTools,
} from './team/start-team-in-process.ts';
export { workerSetup } from './team/worker-setup.ts';
