/** The orders worker service. A bad setting stops it with the variable named (exit 2). */
import { runWorkerService } from '@switchboard/service';
import { ORDERS_SERVICE, ordersSetup } from './setup.ts';

await runWorkerService({ env: process.env, ...ORDERS_SERVICE, setup: ordersSetup });
