/** The comms worker service. A bad setting stops it with the variable named (exit 2). */
import { runWorkerService, workerSetup } from '@switchboard/service';
import { COMMS_WORKER } from './setup.ts';

await runWorkerService({
  env: process.env,
  service: COMMS_WORKER.name,
  defaultPort: COMMS_WORKER.port,
  setup: workerSetup(COMMS_WORKER),
});
