/** The orders worker service. A bad setting stops it with the variable named (exit 2). */
import { runWorkerService, workerSetup } from '@switchboard/service';
import { ORDERS_WORKER } from './setup.ts';

await runWorkerService({
  env: process.env,
  service: ORDERS_WORKER.name,
  defaultPort: ORDERS_WORKER.port,
  setup: workerSetup(ORDERS_WORKER),
});
