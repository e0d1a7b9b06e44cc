// Names of 0.1 kept for one release, each an alias of the name that says its role (docs/migration.md).
import { AgentState, type AgentStatus, createAgentState } from './state/agent-state.ts';

/**
 * @deprecated Renamed `AgentState`: the agent's own state of a task, not the SDK's `TaskState` enum of
 * A2A task states. This alias goes in the next release.
 */
export const TaskState = AgentState;
/** @deprecated Renamed `AgentState`; this alias goes in the next release. */
export type TaskState = AgentState;

/** @deprecated Renamed `AgentStatus`; this alias goes in the next release. */
export type TaskStatus = AgentStatus;

/** @deprecated Renamed `createAgentState`; this alias goes in the next release. */
export const createTaskState = createAgentState;
