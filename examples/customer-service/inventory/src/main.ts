/** The inventory worker service. A bad setting stops it with the variable named (exit 2). */
import { runWorkerService, workerSetup } from '@switchboard/service';
import { INVENTORY_WORKER } from './setup.ts';

await runWorkerService({
  env: process.env,
  service: INVENTORY_WORKER.name,
  defaultPort: INVENTORY_WORKER.port,
  setup: workerSetup(INVENTORY_WORKER),
});
