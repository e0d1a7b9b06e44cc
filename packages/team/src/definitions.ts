import type { Agent, ChatModel, Logger } from '@switchboard/agent';
import type { SupervisorSpec } from '@switchboard/delegate';
import type { SkillSpec } from '@switchboard/protocol';
import type { RedisConnection } from '@switchboard/redis';

/** What a worker's `agent` function gets, wherever the team runs (its own process, one process, a test). */
export interface WorkerContext {
  /** The worker's name (its service's, its queue's, its key's). */
  name: string;
  /** The Redis key namespace the team runs in: prefix your own keys with it. */
  namespace: string;
  /** The agent's model, from its settings (`<NAME>_MODEL`, …; offline by default). */
  model: ChatModel;
  logger: Logger;
  /**
   * The service's Redis (one node or a cluster; the service closes it), for the worker's own data.
   * `undefined` when the team runs in one process without Redis: keep the data in memory then.
   */
  redis: RedisConnection | undefined;
}

/** A worker of a team: an agent with its tools, its card's skills, and where it listens. */
export interface WorkerDefinition {
  readonly role: 'worker';
  /** Its name, lower-case (`flights`): its agent's, its service's, its queue's. */
  name: string;
  /** Its HTTP port when the launcher is given none. */
  port: number;
  /** Builds the agent (its instructions, tools and their permissions), once per service start. */
  agent: (context: WorkerContext) => Agent | Promise<Agent>;
  /** Its card's skills, grouping its tools (default: one skill per tool). */
  skills?: readonly SkillSpec[];
  /**
   * The file its process runs, when it has a main of its own (an absolute path). Default: the
   * platform's, which serves this definition (`serveTeamService` of `@switchboard/service`).
   */
  entry?: string;
}

/** The supervisor of a team: what users talk to; it delegates to the workers' skills. */
export interface SupervisorDefinition extends SupervisorSpec {
  readonly role: 'supervisor';
  name: string;
  /** Its HTTP port when the launcher is given none. */
  port: number;
  /** The file its process runs, when it has a main of its own (an absolute path). */
  entry?: string;
}

/** Options of {@link defineWorker}. */
export interface WorkerOptions {
  name: string;
  /** Its HTTP port when the launcher is given none (default: given by the team, after the supervisor's). */
  port?: number;
  /** The agent, or a function that builds it from the service's context (its model, Redis, logger). */
  agent: Agent | ((context: WorkerContext) => Agent | Promise<Agent>);
  skills?: readonly SkillSpec[];
  entry?: string;
}

/** Options of {@link defineSupervisor}. */
export interface SupervisorOptions extends SupervisorSpec {
  /** Its HTTP port when the launcher is given none (default 4100). */
  port?: number;
  entry?: string;
}

/** Port 0 until the team gives the worker one (the supervisor's port + its place). */
const UNSET_PORT = 0;

/**
 * A worker of a team.
 *
 * @example
 * export const weather = defineWorker({
 *   name: 'weather',
 *   agent: defineAgent({ name: 'weather', instructions: 'Say the forecast.', tools: [forecast] }),
 * });
 */
export function defineWorker({ name, port, agent, skills, entry }: WorkerOptions): WorkerDefinition {
  return {
    role: 'worker',
    name,
    port: port ?? UNSET_PORT,
    agent: typeof agent === 'function' ? agent : () => agent,
    ...(skills ? { skills } : {}),
    ...(entry ? { entry } : {}),
  };
}

/**
 * The supervisor of a team: no tools of its own, one delegation tool per skill of the workers it
 * finds, following them as they come, change and go.
 *
 * @example
 * export const supervisor = defineSupervisor({
 *   description: 'The travel desk: flights and the weather where you fly.',
 *   instructions: 'Send flight questions and bookings to flights, weather questions to weather.',
 * });
 */
export function defineSupervisor({ port, entry, ...spec }: SupervisorOptions): SupervisorDefinition {
  return {
    ...spec,
    role: 'supervisor',
    name: spec.name ?? 'supervisor',
    port: port ?? 4100,
    ...(entry ? { entry } : {}),
  };
}
