import { resolve } from 'node:path';
import type { Logger } from '@switchboard/agent';
import { ConfigError, createModel, readModelConfig, readRedisConfig } from '@switchboard/config';
import { createRedisConnection } from '@switchboard/redis';
import { type Team, type TeamAccess, teamServices } from '@switchboard/team';
import { loadTeam, startInProcess } from '../team/load-team.ts';
import { type LaunchedSystem, launchSystem } from './launch-system.ts';
import { findRedis, type RedisSource, redisAnswers } from './local-redis.ts';
import type { RestartPolicy } from './restart-policy.ts';
import type { ServiceLogLine } from './service-process.ts';
import { describeSystemEvent, type SystemEvent, type SystemGaveUp } from './system-event.ts';

/** How the system runs: one process per service on Redis, or everything in this process. */
export type SystemMode = 'processes' | 'in-process';

/** A booted system, however it runs. */
export interface BootedSystem {
  mode: SystemMode;
  access: TeamAccess;
  /** Says where Redis came from, or why the system runs in one process. */
  note: string;
  /** The processes, when `mode` is `processes`. */
  launched: LaunchedSystem | undefined;
  /** Resolves when a service kept crashing and the system stopped itself (see `launchSystem`). */
  failed: Promise<SystemGaveUp>;
  stop(): Promise<void>;
}

/** An agent's model from the environment, as its service would read it (offline by default). */
function modelFor(env: NodeJS.ProcessEnv, agent: string) {
  const read = readModelConfig(env, agent);
  if ('problems' in read) throw new ConfigError(agent, read.problems);
  return createModel(read.config).model;
}

/** How long a service's claim on a job lasts unrenewed on this machine (`SWITCHBOARD_JOB_LOCK_MS`). */
const LOCAL_JOB_LOCK_MS = 5_000;

/** Options of {@link bootSystem}. */
export interface BootSystemOptions {
  /** The team to run (default: the bundled example's, found from the working directory). */
  team?: Team;
  /** The module `team` was loaded from (see `launchSystem`). */
  teamModule?: string;
  redisUrl: string;
  namespace?: string;
  /**
   * The supervisor's port (default: the team's, 4100 for the bundled one); every service's port
   * moves by as much (the bundled workers take the next three).
   */
  port?: number;
  /** Force one process (no Redis needed). */
  inProcess?: boolean;
  /** Seed the team's data afresh, dropping what earlier runs changed (default false). */
  resetData?: boolean;
  /**
   * The environment the services start from and read their settings from (models, OTLP endpoint):
   * pass the caller's own environment (default: empty).
   */
  baseEnv?: NodeJS.ProcessEnv;
  /** Extra environment for every service process. */
  env?: Readonly<Record<string, string>>;
  onLog?: (line: ServiceLogLine) => void;
  /** Whether crashed service processes are restarted, and how (see `launchSystem`; default `true`). */
  restart?: boolean | RestartPolicy;
  /** Crashes, restarts and giving up of the service processes (default: logged to `logger`). */
  onEvent?: (event: SystemEvent) => void;
  /** Where the in-process system logs (and, by default, the launcher's events). */
  logger: Logger;
}

/** Logs a launcher event: a crash as a warning, giving up as an error. */
function logEvent(logger: Logger) {
  return (event: SystemEvent) => {
    const [headline = ''] = describeSystemEvent(event);
    const fields = {
      service: event.service,
      ...('lastLines' in event ? { lastLines: event.lastLines } : {}),
    };
    if (event.kind === 'restarted') logger.info(fields, headline);
    else if (event.kind === 'crashed') logger.warn(fields, headline);
    else logger.error(fields, headline);
  };
}

/**
 * Boots a team the best way this machine allows: on the Redis at `redisUrl`; else on a
 * `redis-server` started here; else in one process without Redis (and says so). The team's data is
 * seeded first (its `seed`, when it has one). Service processes that crash are restarted (`restart`),
 * and hold their jobs' locks for 5 s unless `SWITCHBOARD_JOB_LOCK_MS` says otherwise, so a crashed
 * service's running jobs move to its new process within seconds.
 */
export async function bootSystem({
  team: given,
  teamModule,
  redisUrl,
  namespace = 'switchboard',
  port: supervisorPort,
  inProcess = false,
  resetData = false,
  baseEnv = {},
  env = {},
  onLog,
  restart = true,
  logger,
  onEvent = logEvent(logger),
}: BootSystemOptions): Promise<BootedSystem> {
  const loaded = given ? { team: given, module: teamModule } : await loadTeam();
  const { team } = loaded;
  const port = supervisorPort ?? team.supervisor.port;
  // On a Redis Cluster (REDIS_CLUSTER_NODES in the environment the services read) everything runs on
  // it: the launcher checks it answers, seeds it, and its children read the nodes, not a REDIS_URL.
  const cluster = baseEnv.REDIS_CLUSTER_NODES?.trim() ? readRedisConfig(baseEnv) : undefined;
  if (cluster && !cluster.ok) throw new ConfigError('switchboard dev', cluster.problems);
  const clusterAt = cluster?.ok ? `the Redis Cluster at ${baseEnv.REDIS_CLUSTER_NODES?.trim()}` : undefined;
  const redis: RedisSource | undefined = inProcess
    ? undefined
    : cluster?.ok
      ? (await redisAnswers(cluster.config, 3_000))
        ? { kind: 'running', url: redisUrl }
        : { kind: 'none', url: redisUrl, why: `${clusterAt} does not answer` }
      : await findRedis(redisUrl);
  if (!redis || redis.kind === 'none') {
    const system = await startInProcess(team, loaded.module, {
      port,
      logger,
      model: (agent) => modelFor({ ...baseEnv, ...env }, agent),
    });
    return {
      mode: 'in-process',
      access: system.access,
      note: inProcess
        ? 'in one process, as asked: agents talk A2A over loopback HTTP, data lives in memory'
        : `in one process, because Redis is not available (${redis?.why}): agents talk A2A over loopback HTTP instead of queues, and data lives in memory`,
      launched: undefined,
      failed: new Promise<never>(() => {}),
      stop: () => system.stop(),
    };
  }
  if (team.seed) {
    const connection = createRedisConnection(cluster?.ok ? cluster.config : { url: redisUrl });
    try {
      const seeded = await team.seed({ redis: connection, namespace, reset: resetData });
      if (seeded.kind === 'invalid') throw new Error(`The team's data is not valid: ${seeded.message}`);
    } finally {
      await connection.quit();
    }
  }
  const shift = port - team.supervisor.port;
  try {
    const launched = await launchSystem({
      team,
      ...(loaded.module ? { teamModule: loaded.module } : {}),
      redisUrl,
      namespace,
      baseEnv,
      ports: Object.fromEntries(teamServices(team).map((service) => [service.name, service.port + shift])),
      env: {
        SWITCHBOARD_SPAN_FILE: resolve('.switchboard/spans.jsonl'),
        // The jobs a crashed service was running move to its restarted process once their lock
        // expires (up to about two lock periods): seconds here, rather than the minute of the
        // default, which a waiting delegation would not outlast.
        ...(baseEnv.SWITCHBOARD_JOB_LOCK_MS ? {} : { SWITCHBOARD_JOB_LOCK_MS: String(LOCAL_JOB_LOCK_MS) }),
        ...env,
      },
      ...(onLog ? { onLog } : {}),
      restart,
      onEvent,
    });
    return {
      mode: 'processes',
      access: launched.access,
      note:
        redis.kind === 'started'
          ? `one process per service, on a redis-server started here at ${redisUrl} (stopped with the system)`
          : `one process per service, on ${clusterAt ?? `Redis at ${redisUrl}`}`,
      launched,
      failed: launched.failed,
      stop: async () => {
        await launched.stop();
        if (redis.kind === 'started') await redis.stop();
      },
    };
  } catch (error) {
    if (redis.kind === 'started') await redis.stop();
    throw error;
  }
}
