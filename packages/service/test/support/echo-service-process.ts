/**
 * A real agent service (`runAgentService`) with a one-line agent, for the tests of how a service ends:
 * `node echo-service-process.ts` with the usual service environment (REDIS_URL, PORT,
 * SWITCHBOARD_NAMESPACE, SWITCHBOARD_SERVICE_KEY, ...). Sends `{ type: 'ready' }` over its IPC
 * channel once it serves.
 */
import { defineAgent } from '@switchboard/agent';
import { loadServiceConfig, runAgentService } from '../../src/index.ts';

const config = loadServiceConfig({ env: process.env, service: 'echo', defaultPort: 4199 });
await runAgentService({
  config,
  setup: () => ({ agent: defineAgent({ name: 'echo', instructions: 'Answer in one line.' }) }),
});
process.send?.({ type: 'ready' });
