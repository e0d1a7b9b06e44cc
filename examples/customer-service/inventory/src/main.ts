/** The inventory worker service. A bad setting stops it with the variable named (exit 2). */
import { runWorkerService } from '@switchboard/service';
import { INVENTORY_SERVICE, inventorySetup } from './setup.ts';

await runWorkerService({ env: process.env, ...INVENTORY_SERVICE, setup: inventorySetup });
