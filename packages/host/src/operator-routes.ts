import type { AgentCard } from '@a2a-js/sdk';
import type { Logger } from '@switchboard/agent';
import type { Authenticator } from '@switchboard/identity';
import type { RequestHandler } from 'express';
import type { DecisionPath } from './approvals/decide-approval.ts';
import type { RunStateStore } from './runs/run-state-store.ts';
import type { TaskDirectory } from './tasks/task-directory.ts';
import type { TaskEventFeed } from './tasks/task-event-log.ts';

/**
 * What a host with an approval board hands the operators' routes it mounts beside `/admin`: the
 * board and the agent its decisions reach (decide with `decideApproval`), and the same authenticator
 * the admin API asks, so an operator is the same operator on every route.
 */
export interface OperatorSide extends DecisionPath {
  /** Who is calling: the host's authenticator (static tokens, peers, the identity provider). */
  authenticate: Authenticator;
  /** The card the host serves. */
  card: AgentCard;
  /** Every user's tasks of this agent (`stores.directory`); absent when the host was given none. */
  tasks?: TaskDirectory | undefined;
  /** The conversations (messages and tool calls) of this agent's tasks, by the key in a task's metadata. */
  runs?: RunStateStore | undefined;
  /** Each task's events as they happen (`stores.eventLog`); absent when the host keeps no event log. */
  events?: TaskEventFeed | undefined;
  logger: Logger;
}

/**
 * Routes for operators that a host with an approval board mounts at `path` (such as the console of
 * `@switchboard/console`), next to its `/admin` API. The host offers the port; what plugs in lives above.
 *
 * @example
 * hostAgent({ ..., approvals: board, http: { operatorRoutes: [{ path: '/console', routes: (side) => consoleRouter(side) }] } });
 */
export interface OperatorRoutes {
  /** Where they are mounted, e.g. `/console`. */
  path: string;
  routes(side: OperatorSide): RequestHandler;
}
