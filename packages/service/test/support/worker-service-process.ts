/**
 * A worker service's whole main, as the apps write theirs (`runWorkerService`), hosting a one-line
 * agent: `node worker-service-process.ts` with the usual service environment.
 */
import { defineAgent } from '@switchboard/agent';
import { runWorkerService } from '../../src/index.ts';

await runWorkerService({
  env: process.env,
  service: 'echo',
  defaultPort: 4199,
  setup: () => ({ agent: defineAgent({ name: 'echo', instructions: 'Answer in one line.' }) }),
});
