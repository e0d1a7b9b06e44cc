import type { Agent, ChatModel, Logger, ToolRouter } from '@switchboard/agent';
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
  /** Builds the router that narrows the tools each run offers (see {@link WorkerOptions.router}). */
  router?: (context: WorkerContext) => ToolRouter | Promise<ToolRouter>;
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
  /**
   * For a worker with many tools: the `ToolRouter` that picks the few each request needs before the
   * model sees any, or a function that builds it once per service start (default: every tool is
   * offered). Embedding recall is opt-in and loads its model only here, e.g.
   * `router: () => new ToolRouter({ embedder: new LocalEmbedder() })` with `LocalEmbedder` from
   * `@switchboard/embeddings-local`; a worker without it loads none of it.
   */
  router?: ToolRouter | ((context: WorkerContext) => ToolRouter | Promise<ToolRouter>);
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
export function defineWorker({ name, port, agent, skills, router, entry }: WorkerOptions): WorkerDefinition {
  return {
    role: 'worker',
    name,
    port: port ?? UNSET_PORT,
    agent: typeof agent === 'function' ? agent : () => agent,
    ...(skills ? { skills } : {}),
    ...(router ? { router: typeof router === 'function' ? router : () => router } : {}),
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
