import { loadServiceConfig, type ServiceConfig } from '@switchboard/service';

/** The orders service's configuration (the common service settings); throws `ConfigError` naming each wrong variable. */
export function loadOrdersConfig(env: NodeJS.ProcessEnv): ServiceConfig {
  return loadServiceConfig({ env, service: 'orders', defaultPort: 4101 });
}
