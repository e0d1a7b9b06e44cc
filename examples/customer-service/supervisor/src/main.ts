/** The shop's supervisor service. A bad setting stops it with the variable named (exit 2). */
import { SHOP_SUPERVISOR } from '@switchboard/customer-service';
import { runSupervisorService } from '@switchboard/service';

await runSupervisorService({
  env: process.env,
  ...SHOP_SUPERVISOR,
  workers: ['orders', 'inventory', 'comms'],
  defaultPort: 4100,
});
