/** The supervisor service. A bad setting stops it with the variable named (exit 2). */
import { runAgentService, runServiceMain } from '@switchboard/service';
import { loadSupervisorConfig } from './config.ts';
import { supervisorSetup } from './supervisor-setup.ts';

await runServiceMain({
  service: 'supervisor',
  start: () => {
    const config = loadSupervisorConfig(process.env);
    return runAgentService({ config, approvalsBoard: true, setup: supervisorSetup(config) });
  },
});
