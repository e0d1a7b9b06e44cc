/** The comms worker service. A bad setting stops it with the variable named (exit 2). */
import { runWorkerService } from '@switchboard/service';
import { COMMS_SERVICE, commsSetup } from './setup.ts';

await runWorkerService({ env: process.env, ...COMMS_SERVICE, setup: commsSetup });
