import {
  type ConsoleOptions,
  fileEvalsView,
  redisShadowView,
  type ShadowView,
  spanTraceView,
} from '@switchboard/console';
import type { AgentRegistry } from '@switchboard/delegate';
import type { RedisConnection } from '@switchboard/redis';
import type { ServiceConfig } from './config/service-config.ts';

/** Options of {@link consoleSources}. */
export interface ConsoleSourcesOptions {
  config: Pick<
    ServiceConfig,
    'service' | 'namespace' | 'spanFile' | 'otlpEndpoint' | 'jaegerUiUrl' | 'evalReports'
  >;
  /** The connection the service's stores use: the shadow page reads the pair records with it. */
  redis: RedisConnection;
  registry: Pick<AgentRegistry, 'list'>;
}

/**
 * What the supervisor's console reads besides the host's own side: a request's traces where this
 * service's spans go (Jaeger at `SWITCHBOARD_JAEGER_URL`, else the span file when it writes one), the
 * team's shadow records, and the eval reports of `SWITCHBOARD_EVAL_REPORTS`.
 */
export function consoleSources({
  config,
  redis,
  registry,
}: ConsoleSourcesOptions): Pick<ConsoleOptions, 'trace' | 'shadow' | 'evals'> {
  const { jaegerUiUrl, otlpEndpoint, spanFile, evalReports } = config;
  // Spans sent to a collector with no Jaeger to read them back from: no trace page.
  const reads = jaegerUiUrl ? { jaegerUrl: jaegerUiUrl } : otlpEndpoint ? undefined : { spanFile };
  const shadow: ShadowView = redisShadowView({
    redis,
    namespace: config.namespace,
    agents: async () => (await registry.list()).map((entry) => entry.name),
  });
  return {
    ...(reads ? { trace: spanTraceView({ ...reads, service: config.service }) } : {}),
    shadow,
    ...(evalReports.reports || evalReports.baseline ? { evals: fileEvalsView(evalReports) } : {}),
  };
}
