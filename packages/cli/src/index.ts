export type { ResolvedSetting, ResolveSettingsOptions, SupervisorSetting } from './config.js';
export { resolveSettings, SUPERVISOR_SETTINGS } from './config.js';
export { DEV_FILE, DevFile, readDevFile, writeDevFile } from './dev-file.js';
export type { CliErrorCode } from './errors.js';
export { CLI_ERRORS, CliError } from './errors.js';
export type { Output } from './io/output.js';
export { EXIT, processOutput } from './io/output.js';
export { buildProgram, main } from './main.js';
