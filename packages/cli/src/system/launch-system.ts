import { randomBytes } from 'node:crypto';
import { generateServiceKey } from '@switchboard/identity';
import {
  serviceKeyEnvironment,
  type Team,
  type TeamAccess,
  type TeamService,
  teamEnvironment,
  teamServices,
  userTokens,
  withServiceRuntime,
} from '@switchboard/team';
import { loadTeam, serviceLaunch } from '../team/load-team.ts';
import { ProcessSupervisor } from './process-supervisor.ts';
import { type RestartPolicy, resolveRestartPolicy } from './restart-policy.ts';
import { type RunningService, type ServiceLogLine, ServiceProcess } from './service-process.ts';
import type { SystemEvent, SystemGaveUp } from './system-event.ts';

/** Options of {@link launchSystem}. */
export interface LaunchSystemOptions {
  /** The team whose services run (default: the bundled example's, found from the working directory). */
  team?: Team;
  /**
   * The module `team` was loaded from: what the platform's main of a service without its own
   * (`entry`) loads the team from. Needed then; found with the team when `team` is not given.
   */
  teamModule?: string;
  redisUrl: string;
  /** Redis key namespace of this system (default `switchboard`); a test uses a unique one. */
  namespace?: string;
  /** Ports by service name (default: each service's own); 0 is not allowed, the card needs the real port. */
  ports?: Readonly<Record<string, number>>;
  /**
   * Processes per worker (default 1). Replica `n` (from 2) is named `<service>-<n>` and listens on
   * `ports['<service>-<n>']`, else on its service's port + 100 × (n - 1).
   */
  replicas?: Readonly<Record<string, number>>;
  /** The environment the services start from, e.g. the caller's own (default: empty). */
  baseEnv?: NodeJS.ProcessEnv;
  /** Extra environment for every service (model settings, OTLP endpoint, ...). */
  env?: Readonly<Record<string, string>>;
  /** Extra environment per service name. */
  serviceEnv?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Every log line of every service, as it comes. */
  onLog?: (line: ServiceLogLine) => void;
  /** How long to wait for each service's ready line (default 60 000 ms). */
  readyTimeoutMs?: number;
  /**
   * Whether a service that exits by itself (not by `stop()`, `kill()` or the system's stop) is
   * restarted: `true` for the default policy (after 0.5 s, doubling up to 8 s; 5 crashes within
   * 60 s, or a restart that dies before it is ready, stop the whole system), or a policy of your
   * own. Default `false`: it stays down, so a test's crash stays a crash (`bootSystem` restarts).
   */
  restart?: boolean | RestartPolicy;
  /** Crashes, restarts and giving up, as they happen. */
  onEvent?: (event: SystemEvent) => void;
}

/** A running system. */
export interface LaunchedSystem {
  readonly access: TeamAccess;
  /** The current process of each service (a restart replaces its entry). */
  readonly services: ReadonlyMap<string, RunningService>;
  /** Starts one service again (after it stopped), and waits until it is ready. */
  restart(name: string): Promise<RunningService>;
  /** Stops every service (SIGTERM and drain), supervisor first. Idempotent. */
  stop(): Promise<void>;
  /**
   * Resolves when the launcher stopped the system by itself because a service kept crashing;
   * pending for as long as the system runs, and after `stop()`.
   */
  readonly failed: Promise<SystemGaveUp>;
}

const token = (label: string) => `${label}-${randomBytes(18).toString('base64url')}`;

/**
 * Starts a team: each service its own `node` child process running its entry file (workers first,
 * then the supervisor, which finds them in the registry), with fresh tokens and a fresh signing key
 * per service (all trusted by all), waiting until each logs that it is ready. With `restart`, a service that exits by itself is reported (`onEvent`) and
 * restarted with backoff, so the work queued for it is taken up again within seconds; one that
 * keeps crashing stops the system (`failed`). Each child has an IPC channel that closes when this
 * process dies, so the services do not outlive it. Used by `switchboard dev` and the demo (through
 * `bootSystem`), the end-to-end tests and the bench.
 */
export async function launchSystem({
  team: given,
  teamModule,
  redisUrl,
  namespace = 'switchboard',
  ports = {},
  replicas = {},
  baseEnv = {},
  env = {},
  serviceEnv = {},
  onLog,
  readyTimeoutMs = 60_000,
  restart = false,
  onEvent,
}: LaunchSystemOptions): Promise<LaunchedSystem> {
  const loaded = given ? { team: given, module: teamModule } : await loadTeam();
  const { team } = loaded;
  const services = teamServices(team);
  // Each service's main, resolved once: its own, or `switchboard serve <service> --team <module>`.
  const launches = new Map(services.map((service) => [service.name, serviceLaunch(service, loaded.module)]));
  const access: TeamAccess = {
    supervisorUrl: `http://127.0.0.1:${ports[team.supervisor.name] ?? team.supervisor.port}`,
    ...userTokens(team.users, () => token('user')),
    adminToken: token('ops'),
    // A fresh signing key per service, every start; every service trusts all their public keys.
    serviceKeys: Object.fromEntries(
      services.map(({ name }) => [name, generateServiceKey({ service: name, label: 'dev' }).privateKey]),
    ),
    redisUrl,
    namespace,
  };
  // Only the supervisor takes users' and the operator's tokens; workers take service callers only.
  const commonOf = (service: TeamService): Record<string, string> => {
    const common = { ...teamEnvironment(access, { front: service.name === team.supervisor.name }), ...env };
    // On a Redis Cluster the services read REDIS_CLUSTER_NODES from the base environment, and refuse
    // a REDIS_URL beside it.
    if (baseEnv.REDIS_CLUSTER_NODES?.trim() && !env.REDIS_URL) delete common.REDIS_URL;
    return common;
  };
  const portOf = (service: TeamService, replica: number) =>
    replica === 1
      ? (ports[service.name] ?? service.port)
      : (ports[`${service.name}-${replica}`] ?? (ports[service.name] ?? service.port) + 100 * (replica - 1));
  const processes = new ProcessSupervisor({
    spawn: (service, replica) =>
      new ServiceProcess({
        service,
        entry: launches.get(service.name)?.entry ?? '',
        args: launches.get(service.name)?.args ?? [],
        replica,
        port: portOf(service, replica),
        // With the flags and allocator settings that keep a service small (SERVICE_RUNTIME).
        env: withServiceRuntime({
          ...baseEnv,
          ...serviceKeyEnvironment(access, service.name),
          ...commonOf(service),
          ...(serviceEnv[service.name] ?? {}),
        }),
        ...(onLog ? { onLog } : {}),
      }),
    readyTimeoutMs,
    policy: restart === false ? undefined : resolveRestartPolicy(restart === true ? {} : restart),
    onEvent,
  });
  try {
    const workers = team.workers.flatMap((service) =>
      Array.from({ length: Math.max(1, replicas[service.name] ?? 1) }, (_, i) => ({
        service,
        replica: i + 1,
      })),
    );
    await Promise.all(workers.map(({ service, replica }) => processes.start(service, replica)));
    await processes.start(team.supervisor, 1);
  } catch (error) {
    await processes.stop();
    throw error;
  }
  return {
    access,
    services: processes.services,
    restart: async (name) => {
      const [base = '', replica = '1'] = name.split(/-(?=\d+$)/);
      const service = services.find((entry) => entry.name === base);
      if (!service) throw new Error(`There is no service "${name}".`);
      return processes.start(service, Number(replica));
    },
    stop: () => processes.stop(),
    failed: processes.failed,
  };
}
