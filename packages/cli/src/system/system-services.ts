import { fileURLToPath } from 'node:url';

/** A service of the customer-service system, as the launcher starts it. */
export interface SystemService {
  name: string;
  /**
   * Its app's package, e.g. `@switchboard/orders`: the service runs the file the package exports as
   * `./main`, found the way Node finds any dependency (see {@link serviceEntry}).
   */
  package: string;
  /** Its default HTTP port. */
  port: number;
}

/** The services of the system, workers first (the supervisor waits for them in the registry). */
export const SYSTEM_SERVICES: readonly SystemService[] = [
  { name: 'orders', package: '@switchboard/orders', port: 4101 },
  { name: 'inventory', package: '@switchboard/inventory', port: 4102 },
  { name: 'comms', package: '@switchboard/comms', port: 4103 },
  { name: 'supervisor', package: '@switchboard/supervisor', port: 4100 },
];

/**
 * The absolute path of the file a service's process runs: its package's `./main` export, resolved
 * from this package (which depends on the apps), so the launcher knows no repository layout.
 */
export function serviceEntry(service: SystemService): string {
  const specifier = `${service.package}/main`;
  try {
    return fileURLToPath(import.meta.resolve(specifier));
  } catch (error) {
    throw new Error(
      `The ${service.name} service cannot be found: ${specifier} does not resolve (${error instanceof Error ? error.message : String(error)}). Run pnpm install.`,
      { cause: error },
    );
  }
}

/** The repository root (the eval cases' default folder, `evals/`). */
export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
