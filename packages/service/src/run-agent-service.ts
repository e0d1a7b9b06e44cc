import { startTelemetry } from '@switchboard/telemetry';
import { watchParent } from './exit-with-parent.ts';
import type { RunAgentServiceOptions, RunningAgentService } from './run-agent-service-options.ts';

/**
 * Runs an agent as a service: starts tracing first (so HTTP and Redis calls are instrumented),
 * then connects to Redis, builds the agent, and serves it over A2A on HTTP (JSON-RPC, REST, card,
 * health) and on its BullMQ queue, with Redis task, run-state and intent stores, cross-replica
 * cancel, a registry entry with heartbeats, and a drain on SIGTERM or when its launcher goes away.
 *
 * @example
 * const config = loadServiceConfig({ env, service: 'orders', defaultPort: 4101 }); // env: the app's
 * await runAgentService({ config, setup: ({ redis }) => ({ agent: createOrdersAgent({ store: new RedisOrderStore({ redis }) }) }) });
 */
export async function runAgentService(options: RunAgentServiceOptions): Promise<RunningAgentService> {
  const { config, version = '0.1.0', handleSignals = true, telemetry: shared } = options;
  // First, so that a launcher that dies while this service is still starting is not missed.
  const parent = handleSignals ? watchParent() : undefined;
  const telemetry =
    shared ??
    (await startTelemetry({
      serviceName: config.service,
      serviceVersion: version,
      environment: config.environment,
      instanceId: config.instanceId,
      maxAttributeLength: config.spanAttributeMaxLength,
      ...(config.otlpEndpoint ? { otlpEndpoint: config.otlpEndpoint } : { spanFile: config.spanFile }),
      ...(config.jaegerUiUrl ? { jaegerUiUrl: config.jaegerUiUrl } : {}),
    }));
  // Loaded after tracing started, so the HTTP and Redis modules are instrumented.
  const { startServing } = await import('./start-serving.ts');
  return startServing({ ...options, version, telemetry, parent });
}
