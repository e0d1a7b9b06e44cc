// Names of 0.1 kept for one release, each an alias of the name that says its role (docs/migration.md).
import { type AgentHandler, type AgentHandlerOptions, createAgentHandler } from './agent-handler.ts';

/** @deprecated Renamed `createAgentHandler` (beside `hostAgent`, which serves it); this alias goes in the next release. */
export const createHostedAgent = createAgentHandler;

/** @deprecated Renamed `AgentHandler`; this alias goes in the next release. */
export type HostedAgent = AgentHandler;

/** @deprecated Renamed `AgentHandlerOptions`; this alias goes in the next release. */
export type HostedAgentOptions = AgentHandlerOptions;
