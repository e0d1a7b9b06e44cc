import { loadServiceConfig, type ServiceConfig } from '@switchboard/service';

/** The comms service's configuration (the common service settings); throws `ConfigError` naming each wrong variable. */
export function loadCommsConfig(env: NodeJS.ProcessEnv): ServiceConfig {
  return loadServiceConfig({ env, service: 'comms', defaultPort: 4103 });
}
