import { isAbsolute } from 'node:path';
import type { AnyTool, AuditSink, ChatModel, Logger } from '@switchboard/agent';
import type { ServicePrivateKey } from '@switchboard/identity';
import type { RedisConnection } from '@switchboard/redis';
import type { SupervisorDefinition, WorkerDefinition } from './definitions.ts';

/**
 * A service of a team as a launcher starts it: one process per replica, running its own main
 * (`entry`) or the platform's (`serveTeamService` of `@switchboard/service`), which reads its settings
 * from the environment the launcher gives it (`PORT`, `REDIS_URL`, the tokens and keys).
 */
export type TeamService = WorkerDefinition | SupervisorDefinition;

/** Who a local run of the team (`switchboard dev`, an in-process run) can be used as. */
export interface TeamUsers {
  /** The end users a local run makes a token for (each a `user` principal, by id). */
  ids: readonly string[];
  /** The user a local run acts as by default; one of `ids`. */
  defaultUser: string;
}

/** How a client reaches a running team, and the secrets it was started with. */
export interface TeamAccess {
  supervisorUrl: string;
  /** The token of the user the team is used as (`userId`, by default the team's `defaultUser`). */
  token: string;
  userId: string;
  /** A token of every user of the team, by user id (`userId`'s is `token`). */
  users: Record<string, string>;
  /** An operator's token (operator `operator`). */
  adminToken: string;
  /**
   * Each service's private signing key, by service name (fresh for every start): what the services
   * sign their requests to each other with. A test signs its own requests with one.
   */
  serviceKeys: Record<string, ServicePrivateKey>;
  redisUrl: string;
  namespace: string;
}

/** What {@link Team.seed} gets: where to load the team's data. */
export interface TeamSeedOptions {
  redis: RedisConnection;
  /** The Redis key namespace the team's services run in. */
  namespace: string;
  /** Data to load instead of the team's bundled data (e.g. a file the user passed), not yet validated. */
  data?: unknown;
  /** Remove what an earlier run left first (default false). */
  reset?: boolean;
}

/**
 * What seeding did: loaded (what, e.g. `the bookings`; a summary, e.g. `12 bookings, 3 flights`; the
 * counts, for `--json`), or refused the data (a message saying what is wrong in it).
 */
export type TeamSeedResult =
  | { kind: 'seeded'; what: string; summary: string; counts: Readonly<Record<string, number>> }
  | { kind: 'invalid'; message: string };

/** What {@link Team.startInProcess} gets: the options of a whole team in one process. */
export interface TeamInProcessOptions {
  /** The supervisor's port (0 for any free port). */
  port: number;
  logger: Logger;
  /** Each agent's model, by agent name (default: the offline planner). */
  model?: (agent: string) => ChatModel;
  /** Where every agent writes its audit records (tool calls, approval decisions). */
  audit?: AuditSink;
  /** Replaces a worker's tool, e.g. to inject a fault (a timeout, an error, malformed data). */
  tool?: (agent: string, tool: AnyTool) => AnyTool;
  /** The supervisor's longest delegation (default 60 000 ms). */
  hopTimeoutMs?: number;
  /**
   * The Redis to run on, as production does (the BullMQ queue binding, Redis stores): each run in a
   * namespace of its own, removed when it stops. Without it, the agents talk A2A JSON-RPC over
   * loopback HTTP and keep their data in memory.
   */
  redis?: { url: string };
}

/** A team running in this process. */
export interface InProcessTeam {
  readonly access: TeamAccess;
  stop(): Promise<void>;
}

/** Who a team's end user is in its data, for the evals' check that no user is shown another's. */
export interface TeamUserFootprint {
  id: string;
  /** What names their records in a tool's arguments (order ids, an email address). */
  records: { label: string; value: string }[];
  /** Their personal data as texts (name, email, street, …). */
  markers: { label: string; value: string }[];
}

/**
 * A team as code: its supervisor and workers (each an agent with its instructions, tools,
 * permissions and card skills), its users for local runs, and optionally its data and eval cases.
 * What `switchboard dev`, `seed` and `eval` run; a team module's default export is one, made with
 * {@link defineTeam}.
 *
 * @example
 * // team.ts
 * export default defineTeam({
 *   title: 'travel desk',
 *   supervisor: defineSupervisor({ description: 'The travel desk.', instructions: '…' }),
 *   workers: [flights, weather],
 *   users: ['traveller-1', 'traveller-2'],
 * });
 */
export interface Team {
  /** What the launcher calls it, e.g. `travel desk` ("Starting the travel desk …"). */
  title: string;
  /** The worker services, started first (the supervisor waits for them in the registry). */
  workers: readonly WorkerDefinition[];
  /** The service users talk to (its approvals board and admin API are the team's). */
  supervisor: SupervisorDefinition;
  users: TeamUsers;
  /** Loads the team's data into Redis before its services start (`switchboard seed`); optional. */
  seed?: (options: TeamSeedOptions) => Promise<TeamSeedResult>;
  /**
   * The whole team in this process, when the team runs it its own way (default: the platform's,
   * `startTeamInProcess` of `@switchboard/service`, on Redis or in memory).
   */
  startInProcess?: (options: TeamInProcessOptions) => Promise<InProcessTeam>;
  /** The team's eval cases: their folder (one folder per suite) and its users' data; optional. */
  evals?: { cases: string; users?: () => readonly TeamUserFootprint[] };
  /** The commands `switchboard dev` suggests once the team runs (each a line after "Try:"). */
  tryCommands?: (access: TeamAccess) => readonly string[];
}

/** What {@link defineTeam} takes: a {@link Team}, its users as a list (the first is the default). */
export interface TeamOptions extends Omit<Team, 'title' | 'users'> {
  /** Default `team`. */
  title?: string;
  /** The users a local run makes a token for: their ids (the first is the default), or ids and the default. */
  users: readonly string[] | TeamUsers;
}

const NAME = /^[a-z][a-z0-9_-]*$/;

/**
 * Checks a team and returns it: service names unique and lower-case, entry files absolute, ports
 * whole numbers (a worker without one gets the supervisor's + its place), at least one user, the
 * default user one of them. Throws a `TypeError` saying everything there is to fix.
 */
export function defineTeam(options: TeamOptions): Team {
  const problems: string[] = [];
  const supervisor = options.supervisor;
  if (!supervisor) problems.push('supervisor is required: defineSupervisor({ description, instructions })');
  const base = supervisor?.port ?? 4100;
  const workers = (options.workers ?? []).map((worker, index) =>
    worker && worker.port === 0 ? { ...worker, port: base + index + 1 } : worker,
  );
  if (workers.length === 0)
    problems.push('workers must name at least one worker: defineWorker({ name, agent })');
  const seen = new Set<string>();
  for (const service of [...workers, supervisor].filter(Boolean)) {
    if (!NAME.test(service.name ?? ''))
      problems.push(`service name "${service.name}" must be lower-case letters, digits, - or _`);
    if (seen.has(service.name)) problems.push(`service name "${service.name}" is used twice`);
    seen.add(service.name);
    if (service.entry !== undefined && (typeof service.entry !== 'string' || !isAbsolute(service.entry)))
      problems.push(`${service.name}: entry must be an absolute path (got ${JSON.stringify(service.entry)})`);
    if (!Number.isInteger(service.port) || service.port < 1 || service.port > 65_535)
      problems.push(`${service.name}: port must be a whole number from 1 to 65535 (got ${service.port})`);
    if (service.role === 'worker' && typeof service.agent !== 'function')
      problems.push(`${service.name}: agent must be an agent or a function that builds one (defineWorker)`);
    if (service.role === undefined)
      problems.push(
        `${(service as { name?: string }).name}: make it with defineWorker({ … }) or defineSupervisor({ … })`,
      );
  }
  const users = Array.isArray(options.users)
    ? { ids: options.users as readonly string[], defaultUser: (options.users as readonly string[])[0] ?? '' }
    : (options.users as TeamUsers | undefined);
  if (!users || users.ids.length === 0)
    problems.push('users must name at least one user, e.g. users: ["alice"]');
  else {
    for (const id of users.ids)
      if (typeof id !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$/.test(id))
        problems.push(`user "${id}" must be letters, digits, ., _, @ or -, at most 128`);
    if (!users.ids.includes(users.defaultUser))
      problems.push(`users.defaultUser "${users.defaultUser}" must be one of users.ids`);
  }
  if (options.startInProcess !== undefined && typeof options.startInProcess !== 'function')
    problems.push('startInProcess must be a function');
  if (problems.length > 0 || !users) throw new TypeError(`The team is not valid: ${problems.join('; ')}.`);
  return { ...options, title: options.title ?? 'team', workers, users };
}
/** Every service of a team, workers first, as a launcher starts them. */
export function teamServices(team: Team): readonly TeamService[] {
  return [...team.workers, team.supervisor];
}

/**
 * A fresh token for every user of a team, the default user's also as `token`: who a local run
 * (in process, `switchboard dev`, the demo) can be used as.
 */
export function userTokens(
  users: TeamUsers,
  newToken: () => string,
): Pick<TeamAccess, 'token' | 'userId' | 'users'> {
  const tokens = Object.fromEntries(users.ids.map((id) => [id, newToken()]));
  const token = tokens[users.defaultUser] ?? newToken();
  return {
    token,
    userId: users.defaultUser,
    users: tokens,
  };
}

/** User tokens as the static-token list wants them: token → user id. */
export function tokensToIds(users: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(users).map(([id, token]) => [token, id]));
}
