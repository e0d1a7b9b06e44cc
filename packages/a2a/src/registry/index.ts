// The agent registry in Redis, and SDK clients for the agents it lists.
export type { AgentRegistryOptions, RegisterOptions, Registration } from './agent-registry.ts';
export { AgentRegistry } from './agent-registry.ts';
export type { RegistryClientOptions } from './registry-client.ts';
export { clientForAgent, clientFromRegistryEntry } from './registry-client.ts';
export type { RegistryEntry, RegistryInstance } from './registry-entry.ts';
