import { startTelemetry } from '@switchboard/telemetry';
import type { ServiceConfig } from './config/service-config.ts';
import type { AgentSetup, ServiceContext } from './service-setup.ts';

/** Options of {@link runAgentService}. */
export interface RunAgentServiceOptions {
  config: ServiceConfig;
  /** The service's version, published in its card and its traces (default `0.1.0`). */
  version?: string;
  /** Builds the agent once Redis, the model and the registry are ready. */
  setup: (context: ServiceContext) => Promise<AgentSetup> | AgentSetup;
  /**
   * Keep an approval board of this service's tasks and serve the operators' `/admin` API (the
   * public supervisor does). Default false.
   */
  approvalsBoard?: boolean;
  /**
   * Handle SIGTERM and SIGINT with a drain and exit, and drain and exit the same way when the process
   * that started this one with an IPC channel goes away (`exitWithParent`). Default true.
   */
  handleSignals?: boolean;
}

/** A running service. */
export interface RunningAgentService {
  /** The HTTP base URL it listens on. */
  readonly url: string;
  /** Drains and stops everything; resolves when done. Idempotent. */
  close(): Promise<void>;
}

/**
 * Runs an agent as a service: starts tracing first (so HTTP and Redis calls are instrumented),
 * then connects to Redis, builds the agent, and serves it over A2A on HTTP (JSON-RPC, REST, card,
 * health) and on its BullMQ queue, with Redis task, run-state and intent stores, cross-replica
 * cancel, a registry entry with heartbeats, and a drain on SIGTERM or when its launcher goes away.
 *
 * @example
 * const config = loadServiceConfig({ env, service: 'orders', defaultPort: 4101 }); // env: the app's
 * await runAgentService({ config, setup: ({ redis }) => ({ agent: createOrdersAgent({ store: new RedisShopStore({ redis }) }) }) });
 */
export async function runAgentService(options: RunAgentServiceOptions): Promise<RunningAgentService> {
  const { config, version = '0.1.0' } = options;
  const telemetry = await startTelemetry({
    serviceName: config.service,
    serviceVersion: version,
    environment: config.environment,
    instanceId: config.instanceId,
    ...(config.otlpEndpoint ? { otlpEndpoint: config.otlpEndpoint } : { spanFile: config.spanFile }),
    ...(config.jaegerUiUrl ? { jaegerUiUrl: config.jaegerUiUrl } : {}),
  });
  // Loaded after tracing started, so the HTTP and Redis modules are instrumented.
  const { startServing } = await import('./start-serving.ts');
  return startServing({ ...options, version, telemetry });
}
