export type { SystemAccess } from '@switchboard/customer-service/system';
export type { ResolvedSetting, ResolveSettingsOptions, SupervisorSetting } from './config.js';
export { resolveSettings, SUPERVISOR_SETTINGS } from './config.js';
export { DEV_FILE, DevFile, readDevFile, writeDevFile } from './dev-file.js';
export type { CliErrorCode } from './errors.js';
export { CLI_ERRORS, CliError } from './errors.js';
export type { Output } from './io/output.js';
export { EXIT, processOutput } from './io/output.js';
export { buildProgram, main } from './main.js';
export type { BootedSystem, BootSystemOptions, SystemMode } from './system/boot-system.js';
export { bootSystem } from './system/boot-system.js';
export type {
  LaunchedSystem,
  LaunchSystemOptions,
  RunningService,
  ServiceLogLine,
} from './system/launch-system.js';
export { launchSystem } from './system/launch-system.js';
export type { RedisSource } from './system/local-redis.js';
export { findRedis, redisAnswers } from './system/local-redis.js';
export { formatLogLine } from './system/log-line.js';
export { REPO_ROOT, SYSTEM_SERVICES } from './system/system-services.js';
