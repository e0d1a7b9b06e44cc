import { loadServiceConfig } from './config/service-config.ts';
import { runAgentService } from './run-agent-service.ts';
import type { RunAgentServiceOptions } from './run-agent-service-options.ts';
import { runServiceMain } from './run-service-main.ts';

/** Options of {@link runWorkerService}. */
export interface RunWorkerServiceOptions {
  /** The environment the settings are read from: the app passes `process.env`. */
  env: NodeJS.ProcessEnv;
  /** The agent's name, e.g. `orders`: also the prefix of its own model variables (`ORDERS_MODEL`). */
  service: string;
  /** Its HTTP port when `PORT` is not set. */
  defaultPort: number;
  /** Builds the agent once Redis, the model and the registry are ready (see `runAgentService`). */
  setup: RunAgentServiceOptions['setup'];
  /** The service's version, published in its card and its traces (default `0.1.0`). */
  version?: string;
}

/**
 * The whole main of a worker service: reads the common service settings from `env`
 * (`loadServiceConfig`), serves the agent `setup` builds (`runAgentService`), and when it cannot
 * start, exits 2 naming each wrong variable (`runServiceMain`).
 *
 * @example
 * // apps/orders/src/main.ts
 * await runWorkerService({
 *   env: process.env,
 *   service: 'orders',
 *   defaultPort: 4101,
 *   setup: ({ redis, config }) => ({
 *     agent: createOrdersAgent({ store: new RedisOrderStore({ redis, prefix: config.namespace }) }),
 *     skills: ORDERS_SKILLS,
 *   }),
 * });
 */
export function runWorkerService({
  env,
  service,
  defaultPort,
  setup,
  version,
}: RunWorkerServiceOptions): Promise<void> {
  return runServiceMain({
    service,
    start: () =>
      runAgentService({
        config: loadServiceConfig({ env, service, defaultPort }),
        setup,
        ...(version ? { version } : {}),
      }),
  });
}
