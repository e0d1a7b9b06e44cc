import { fileURLToPath } from 'node:url';

/** A service of the customer-service system, as the launcher starts it. */
export interface SystemService {
  name: string;
  /** The entry point, relative to the repository root. */
  entry: string;
  /** Its default HTTP port. */
  port: number;
}

/** The services of the system, workers first (the supervisor waits for them in the registry). */
export const SYSTEM_SERVICES: readonly SystemService[] = [
  { name: 'orders', entry: 'apps/orders/src/main.ts', port: 4101 },
  { name: 'inventory', entry: 'apps/inventory/src/main.ts', port: 4102 },
  { name: 'comms', entry: 'apps/comms/src/main.ts', port: 4103 },
  { name: 'supervisor', entry: 'apps/supervisor/src/main.ts', port: 4100 },
];

/** The repository root, where the apps live. */
export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
