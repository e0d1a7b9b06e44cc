/**
 * One run of the soak (see `soak.ts`): the model server, a Redis (a private `redis-server` unless a
 * URL is given), then each configuration in turn — launched, warmed up, measured, stopped, audited
 * and deleted. Shared by the soak and the profile (`profile.ts`), which runs it with node flags.
 */
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createRedisConnection, isCluster, type RedisConnection } from '@switchboard/redis';
import { type Child, startChild } from './hop-children.ts';
import { type PrivateCluster, startPrivateCluster } from './private-cluster.ts';
import { type PrivateRedis, startPrivateRedis } from './private-redis.ts';
import { memoryMb, ProcessSampler } from './proc-stats.ts';
import { countersSince, startRedisWindow } from './redis-counters.ts';
import { monitorCommands } from './redis-monitor.ts';
import { auditTasks } from './soak-audit.ts';
import { CallsReport } from './soak-ipc.ts';
import { customerClient, runLoad } from './soak-load.ts';
import type { SoakOptions } from './soak-options.ts';
import type { ConfigurationResult } from './soak-report.ts';
import { type SoakConfiguration, startConfiguration } from './soak-system.ts';

const WORKERS = ['orders', 'inventory', 'comms'];
/** How long after the services are ready their idle RSS is read. */
const IDLE_SETTLE_MS = 3_000;

/** What a run of the soak gives back. */
export interface SoakRun {
  /** One per configuration that finished. */
  results: ConfigurationResult[];
  /** Why the run did not finish, when it did not. */
  failures: string[];
  /** Whether Redis was the bench's own (exact counts) or a shared server. */
  redis: { url: string; own: boolean };
}

async function modelCalls(model: Child): Promise<number> {
  model.process.send({ type: 'calls' });
  for (;;) {
    const [message] = (await once(model.process, 'message')) as [unknown];
    const report = CallsReport.safeParse(message);
    if (report.success) return report.data.calls;
  }
}

/** The Redis server's pid, when it runs on this machine (so its CPU and memory can be read). */
async function localRedisPid(redis: RedisConnection): Promise<number | undefined> {
  // A cluster's CPU is several processes': not read.
  if (isCluster(redis)) return undefined;
  const pid = Number(/process_id:(\d+)/.exec(await redis.info('server'))?.[1]);
  const command = await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '');
  return command.startsWith('redis') ? pid : undefined;
}

/** The monotonic clock in µs, the clock of V8's CPU profiles. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Runs the configurations one after another and returns what was measured. `nodeFlags` go to every
 * service process (e.g. `--cpu-prof`); they stop, and so write their profiles, before this returns.
 */
export async function runSoak({
  options,
  configurations,
  nodeFlags = [],
}: {
  options: SoakOptions;
  configurations: readonly SoakConfiguration[];
  nodeFlags?: readonly string[];
}): Promise<SoakRun> {
  const results: ConfigurationResult[] = [];
  const failures: string[] = [];
  let own: PrivateRedis | PrivateCluster | undefined;
  if (options.redisCluster) own = await startPrivateCluster();
  else if (!options.redisUrl) own = await startPrivateRedis();
  const clusterNodes = own && 'nodes' in own ? own.nodes : undefined;
  const redisUrl = clusterNodes
    ? `redis://${clusterNodes.split(',')[0]}`
    : (options.redisUrl ?? (own && 'url' in own ? own.url : ''));
  const redis = createRedisConnection(clusterNodes ? { clusterNodes } : { url: redisUrl });
  let model: Child | undefined;
  try {
    const redisPid = own && 'pid' in own ? own.pid : await localRedisPid(redis);
    model = await startChild('soak-model-server.ts', ['--latency-ms', String(options.latencyMs)]);
    for (const configuration of configurations) {
      console.error(`soak: starting "${configuration.name}"`);
      const running = await startConfiguration({
        redis,
        redisUrl,
        clusterNodes,
        configuration,
        modelUrl: model.ready.url,
        nodeFlags,
      });
      const ready = new Date();
      // Idle: the services up, no request sent yet; after a moment, so startup's garbage is collected.
      await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
      const idleMb = new Map<string, number>();
      for (const [name, pid] of running.pids) idleMb.set(name, (await memoryMb(pid, 'VmRSS')) ?? Number.NaN);
      let cleaned: { spanBytes: number; keysDeleted: number } | undefined;
      try {
        const { supervisorUrl, token } = running.launched.access;
        const client = await customerClient(supervisorUrl, token);
        const load = { client, concurrency: options.concurrency, timeoutMs: options.timeoutMs };
        const warmup = await runLoad({ ...load, requests: options.warmup });
        const processes = new Map([...running.pids, ['model server', model.process.pid ?? 0]]);
        processes.set('bench client', process.pid);
        if (redisPid) processes.set('redis', redisPid);
        // The services live as long as the configuration; the others (Redis, the model server, this
        // process) longer, so only the services' VmHWM is theirs.
        const sampler = new ProcessSampler({ processes, highWaterMarks: new Set(running.pids.keys()) });
        const callsBefore = await modelCalls(model);
        const redisBefore = await startRedisWindow(redis, { own: own !== undefined });
        const monitor = options.monitor && !clusterNodes ? await monitorCommands(redisUrl) : undefined;
        await sampler.start();
        const measuredFrom = new Date();
        const fromUs = monotonicUs();
        const measured = await runLoad({
          ...load,
          requests: options.requests,
          onProgress: (done, elapsedMs) =>
            console.error(
              `  ${done.length}/${options.requests} done, ${done.filter((outcome) => !outcome.ok).length} lost, ` +
                `${((done.length / elapsedMs) * 1000).toFixed(1)} req/s`,
            ),
        });
        const toUs = monotonicUs();
        const measuredTo = new Date();
        const { processes: usage, machineBusy } = await sampler.stop();
        const families = await monitor?.stop();
        const redisCounts = countersSince(redisBefore, await startRedisWindow(redis, { own: false }));
        const calls = (await modelCalls(model)) - callsBefore;
        // Stopped before the audit, so no task is still moving. Queue jobs are drained; a task whose HTTP
        // caller gave up (a client timeout) may be cut short and stay in its last state.
        const stopping = new Date();
        await running.stop();
        const stopped = new Date();
        const outcomes = [...warmup.outcomes, ...measured.outcomes];
        const audit = await auditTasks({
          redis,
          namespace: running.namespace,
          requests: outcomes.map((outcome) => ({
            contextId: outcome.contextId,
            agent: outcome.prompt.agent,
          })),
          workers: WORKERS,
        });
        cleaned = await running.clean();
        results.push({
          configuration,
          measured: measured.outcomes,
          warmup: warmup.outcomes,
          wallMs: measured.wallMs,
          audit,
          usage,
          idleMb,
          machineBusy,
          modelCalls: calls,
          redis: { ...redisCounts, own: own !== undefined, ...(families ? { families } : {}) },
          logs: running.logs,
          spanBytes: cleaned.spanBytes,
          phases: { ready, measuredFrom, measuredTo, stopping, stopped },
          windowUs: { from: fromUs, to: toUs },
        });
      } finally {
        // Both are no-ops when the run got that far; after a failure they stop and delete everything.
        await running.stop();
        if (!cleaned) await running.clean();
      }
    }
  } catch (error) {
    failures.push(
      `the soak did not finish: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  } finally {
    await model?.stop();
    await redis.quit();
    await own?.stop();
  }
  return { results, failures, redis: { url: redisUrl, own: own !== undefined } };
}
