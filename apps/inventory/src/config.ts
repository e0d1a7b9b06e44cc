import { loadServiceConfig, type ServiceConfig } from '@switchboard/service';

/** The inventory service's configuration (the common service settings); throws `ConfigError` naming each wrong variable. */
export function loadInventoryConfig(env: NodeJS.ProcessEnv): ServiceConfig {
  return loadServiceConfig({ env, service: 'inventory', defaultPort: 4102 });
}
