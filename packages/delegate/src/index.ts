// The caller's side: accept peers' cards, turn their skills into tools that delegate over A2A, sign those
// calls, follow the registry of agents, make SDK clients for the agents it lists, and assemble a
// supervisor over the workers it finds there (`WorkerTools`).
export type { PeerCard } from './accept-peer-card.ts';
export { acceptPeerCard, acceptPeerCards } from './accept-peer-card.ts';
export type { PeerCardPolicy, PeerCardSignatures } from './accept-signed-peer-cards.ts';
export { acceptSignedPeerCards, PEER_CARD_POLICIES } from './accept-signed-peer-cards.ts';
export type { DelegateOutcome } from './delegation-result.ts';
export type { DelegationToolsOptions } from './delegation-tools.ts';
export { delegationTarget, delegationTools } from './delegation-tools.ts';
export type { AgentRegistryOptions, RegisterOptions, Registration } from './registry/agent-registry.ts';
export { AgentRegistry } from './registry/agent-registry.ts';
export type { RegistryClientOptions } from './registry/registry-client.ts';
export { clientForAgent, clientFromRegistryEntry } from './registry/registry-client.ts';
export type { RegistryEntry, RegistryInstance } from './registry/registry-entry.ts';
export type { LiveReplicas } from './replica-watch.ts';
export { reachesShadowsOnly, shadowPeerCard, shadowQueueAddress } from './shadow-peers.ts';
export type { SignedCallOptions } from './signed-calls.ts';
export { signedCallOptions, signQueuedRequests } from './signed-calls.ts';
export type {
  TaskStateName,
  TeamClient,
  TeamClientOptions,
  TeamOperator,
  TeamReply,
} from './team-client/team-client.ts';
export { connectTeam, operatorOf, stateName, textOf } from './team-client/team-client.ts';
export { discoverWorkers } from './workers/discover-workers.ts';
export type { SupervisorSpec } from './workers/supervisor-agent.ts';
export { supervisorAgent, supervisorName } from './workers/supervisor-agent.ts';
export { findWorkers, onceEach, workerCards } from './workers/worker-cards.ts';
export type { WorkerToolsOptions } from './workers/worker-tools.ts';
export { WorkerTools } from './workers/worker-tools.ts';
