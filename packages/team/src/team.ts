import { isAbsolute } from 'node:path';
import type { AnyTool, AuditSink, ChatModel, Logger } from '@switchboard/agent';
import type { ServicePrivateKey } from '@switchboard/identity';
import type { RedisConnection } from '@switchboard/redis';

/**
 * A service of a team, as a launcher starts it: one `node <entry>` process per replica, which reads
 * its settings from the environment the launcher gives it (`PORT`, `REDIS_URL`, the tokens and keys).
 */
export interface TeamService {
  /** The service's (and its agent's) name, e.g. `orders`: also its Redis queue's and its key's. */
  name: string;
  /** The absolute path of the file its process runs (an app's `src/main.ts`). */
  entry: string;
  /** Its HTTP port when the launcher is given none. */
  port: number;
}

/** Who a local run of the team (`switchboard dev`, an in-process run) can be used as. */
export interface TeamUsers {
  /** The end users a local run makes a token for (the platform's `customer` principals). */
  ids: readonly string[];
  /** The user a local run acts as by default; one of `ids`. */
  defaultUser: string;
}

/** How a client reaches a running team, and the secrets it was started with. */
export interface TeamAccess {
  supervisorUrl: string;
  /** The token of the user the team is used as (`customerId`, by default the team's `defaultUser`). */
  token: string;
  customerId: string;
  /** A token of every user of the team, by user id (`customerId`'s is `token`). */
  customers: Record<string, string>;
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
 * What seeding did: loaded (what, e.g. `the shop`; a summary, e.g. `8 customers, 10 products`; the
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
 * A team as a launcher runs it (`switchboard dev`, `seed`, `eval`, the demo): its services, how
 * to seed it, who a local run can be used as, and how it starts in one process. A team module's
 * default export is one, made with {@link defineTeam}.
 *
 * @example
 * // team.ts
 * export default defineTeam({
 *   title: 'travel desk',
 *   workers: [{ name: 'flights', entry: fileURLToPath(import.meta.resolve('@travel/flights/main')), port: 4101 }],
 *   supervisor: { name: 'supervisor', entry: …, port: 4100 },
 *   users: { ids: ['traveller-1'], defaultUser: 'traveller-1' },
 *   startInProcess: (options) => startTravelDesk(options),
 * });
 */
export interface Team {
  /** What the launcher calls it, e.g. `customer-service system` ("Starting the Switchboard …"). */
  title: string;
  /** The worker services, started first (the supervisor waits for them in the registry). */
  workers: readonly TeamService[];
  /** The service users talk to (its approvals board and admin API are the team's). */
  supervisor: TeamService;
  users: TeamUsers;
  /** Loads the team's data into Redis before its services start (`switchboard seed`); optional. */
  seed?: (options: TeamSeedOptions) => Promise<TeamSeedResult>;
  /** The whole team in this process (`switchboard dev --in-process`, `switchboard eval`). */
  startInProcess: (options: TeamInProcessOptions) => Promise<InProcessTeam>;
  /** The team's eval cases: their folder (one folder per suite) and its users' data; optional. */
  evals?: { cases: string; users?: () => readonly TeamUserFootprint[] };
  /** The commands `switchboard dev` suggests once the team runs (each a line after "Try:"). */
  tryCommands?: (access: TeamAccess) => readonly string[];
}

/**
 * Checks a team and returns it: service names unique and lower-case, entry files absolute,
 * ports whole numbers, the default user one of the users. Throws a `TypeError` saying what to fix.
 */
export function defineTeam(team: Team): Team {
  const problems: string[] = [];
  const services = [...(team.workers ?? []), team.supervisor].filter(Boolean);
  if (!team.supervisor) problems.push('supervisor is required: the service users talk to');
  const seen = new Set<string>();
  for (const service of services) {
    if (!/^[a-z][a-z0-9_-]*$/.test(service.name ?? ''))
      problems.push(`service name "${service.name}" must be lower-case letters, digits, - or _`);
    if (seen.has(service.name)) problems.push(`service name "${service.name}" is used twice`);
    seen.add(service.name);
    if (typeof service.entry !== 'string' || !isAbsolute(service.entry))
      problems.push(`${service.name}: entry must be an absolute path (got ${JSON.stringify(service.entry)})`);
    if (!Number.isInteger(service.port) || service.port < 1 || service.port > 65_535)
      problems.push(`${service.name}: port must be a whole number from 1 to 65535 (got ${service.port})`);
  }
  if (!team.users?.ids.includes(team.users.defaultUser))
    problems.push(`users.defaultUser "${team.users?.defaultUser}" must be one of users.ids`);
  if (typeof team.startInProcess !== 'function') problems.push('startInProcess must be a function');
  if (problems.length > 0) throw new TypeError(`The team is not valid: ${problems.join('; ')}.`);
  return team;
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
): Pick<TeamAccess, 'token' | 'customerId' | 'customers'> {
  const customers = Object.fromEntries(users.ids.map((id) => [id, newToken()]));
  return { token: customers[users.defaultUser] ?? newToken(), customerId: users.defaultUser, customers };
}

/** User tokens as the static-token list wants them: token → user id. */
export function tokensToIds(customers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(customers).map(([id, token]) => [token, id]));
}
