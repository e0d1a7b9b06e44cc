import type { SupervisorSpec } from '@switchboard/delegate';
import { runAgentService } from '../run-agent-service.ts';
import { runServiceMain } from '../run-service-main.ts';
import { loadSupervisorConfig } from './supervisor-config.ts';
import { supervisorSetup } from './supervisor-setup.ts';

/** Options of {@link runSupervisorService}: the supervisor's spec, and the defaults of its settings. */
export interface RunSupervisorServiceOptions extends SupervisorSpec {
  /** The environment the settings are read from: the app passes `process.env`. */
  env: NodeJS.ProcessEnv;
  /** The workers it delegates to (`SWITCHBOARD_WORKERS` overrides): their agent names. */
  workers?: readonly string[];
  /** Its HTTP port when `PORT` is not set (default 4100). */
  defaultPort?: number;
  /** The service's version, published in its card and its traces (default `0.1.0`). */
  version?: string;
}

/**
 * The whole main of a supervisor service: reads its settings from `env` (`loadSupervisorConfig`),
 * finds the workers in the registry, serves the supervisor over one delegation tool per worker skill,
 * following the registry as workers come, change and go, with the approval board and the operators'
 * admin API; when it cannot start, exits 2 naming each wrong variable.
 *
 * @example
 * // supervisor/main.ts
 * await runSupervisorService({
 *   env: process.env,
 *   description: 'The travel desk: flights and the weather at the destination.',
 *   instructions: 'Delegate every flight question to the flights skills, weather to weather.',
 *   workers: ['flights', 'weather'],
 * });
 */
export function runSupervisorService({
  env,
  workers,
  defaultPort,
  version,
  ...spec
}: RunSupervisorServiceOptions): Promise<void> {
  const service = spec.name ?? 'supervisor';
  return runServiceMain({
    service,
    start: () => {
      const config = loadSupervisorConfig(env, {
        service,
        ...(defaultPort === undefined ? {} : { defaultPort }),
        ...(workers ? { workers } : {}),
      });
      return runAgentService({
        config,
        approvalsBoard: true,
        setup: supervisorSetup(config, spec),
        ...(version ? { version } : {}),
      });
    },
  });
}
