// @switchboard/a2a/registry is deprecated: the agent registry moved to their own packages
// (docs/migration.md lists every name's new home). These re-exports go in the next release.
export type {
  AgentRegistryOptions,
  RegisterOptions,
  Registration,
  RegistryClientOptions,
  RegistryEntry,
  RegistryInstance,
} from '@switchboard/delegate';
export { AgentRegistry, clientForAgent, clientFromRegistryEntry } from '@switchboard/delegate';
