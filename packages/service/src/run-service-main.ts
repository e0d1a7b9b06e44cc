import { ConfigError } from '@switchboard/config';

/** The exit code of a service that cannot start: a wrong setting, or a dependency it cannot reach. */
const CANNOT_START = 2;

/** Options of {@link runServiceMain}. */
export interface RunServiceMainOptions {
  /** The service's name, for the message when it fails to start. */
  service: string;
  /** Reads the settings and starts the service (`runAgentService`); resolves once it serves. */
  start: () => Promise<unknown>;
}

/**
 * The main of a service's process: runs `start`, and when the service cannot start, says why on
 * stderr and exits 2. A wrong setting is reported as its {@link ConfigError} names it (every
 * variable at fault, and how to fix it), anything else as `<service> failed to start: <why>`. Once
 * the service serves, its own signal handling ends the process.
 *
 * @example
 * // apps/supervisor/src/main.ts
 * await runServiceMain({
 *   service: 'supervisor',
 *   start: () => runAgentService({ config: loadSupervisorConfig(process.env), setup }),
 * });
 */
export async function runServiceMain({ service, start }: RunServiceMainOptions): Promise<void> {
  try {
    await start();
  } catch (error) {
    const message =
      error instanceof ConfigError
        ? error.message
        : `${service} failed to start: ${error instanceof Error ? error.message : String(error)}`;
    process.stderr.write(`${message}\n`);
    process.exit(CANNOT_START);
  }
}
