export type { SystemAccess } from '@switchboard/customer-service/system';
export type { ResolvedSetting, ResolveSettingsOptions, SupervisorSetting } from './config.ts';
export { resolveSettings, SUPERVISOR_SETTINGS } from './config.ts';
export { DEV_FILE, DevFile, readDevFile, writeDevFile } from './dev-file.ts';
export type { CliErrorCode } from './errors.ts';
export { CLI_ERRORS, CliError } from './errors.ts';
export type { Output } from './io/output.ts';
export { EXIT, processOutput } from './io/output.ts';
export { buildProgram, main } from './main.ts';
export type { BootedSystem, BootSystemOptions, SystemMode } from './system/boot-system.ts';
export { bootSystem } from './system/boot-system.ts';
export type {
  LaunchedSystem,
  LaunchSystemOptions,
  RunningService,
  ServiceLogLine,
} from './system/launch-system.ts';
export { launchSystem } from './system/launch-system.ts';
export type { RedisSource } from './system/local-redis.ts';
export { findRedis, redisAnswers } from './system/local-redis.ts';
export { formatLogLine } from './system/log-line.ts';
export { REPO_ROOT, SYSTEM_SERVICES } from './system/system-services.ts';
