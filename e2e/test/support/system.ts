import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LaunchedSystem, launchSystem, REPO_ROOT } from '@switchboard/cli';
import { RedisShopStore, seedShop } from '@switchboard/customer-service';
import { createRedisConnection } from '@switchboard/redis';
import { freePort, spawnGroup } from '@switchboard/test-processes';
import type { Redis } from 'ioredis';

/**
 * Longest one CLI run may take. A run that hangs fails its test with the command and what it printed
 * (rather than vitest's bare timeout): the tests' own timeouts are longer.
 */
const CLI_DEADLINE_MS = 45_000;
/**
 * Longest a service may take to be ready: well above what four services starting at once take on a
 * busy machine, and below the hooks' timeout, so a service that does not start is named, with its log.
 */
const READY_TIMEOUT_MS = 90_000;
/** Longest the services may take to drain and stop (SWITCHBOARD_DRAIN_MS is 3 s here) before they are killed. */
const STOP_DEADLINE_MS = 30_000;

/** What a CLI run printed and how it exited. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The customer-service system of one test file: every service its own process, on real Redis. */
export interface TestSystem {
  launched: LaunchedSystem;
  namespace: string;
  redis: Redis;
  store: RedisShopStore;
  spanFile: string;
  /**
   * Runs `switchboard <args>` as a user would, against this system. Rejects, with the command and what
   * it printed, when it runs longer than 45 s.
   */
  cli(...args: string[]): Promise<CliRun>;
  /** Stops the services (they drain), SIGKILL for any still running after 30 s; clears the namespace. */
  stop(): Promise<void>;
  /**
   * The services that are no longer running, each with how it ended and its last log lines: what a
   * drill asserts is empty, so a failure says which service stopped and why.
   */
  exitedServices(): string[];
}

/** How many of each service's last log lines a test system keeps, for its failure messages. */
const KEPT_LINES = 30;

const defaultRedisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * The environment that turns off the per-customer limits, for a test that is one customer sending
 * what many would (a drill, polling for minutes): 60 requests a minute, 5 tasks and 10 streams at
 * once otherwise.
 */
export const NO_CUSTOMER_LIMITS = {
  SWITCHBOARD_RATE_LIMIT_PER_MIN: '0',
  SWITCHBOARD_MAX_TASKS_IN_FLIGHT: '0',
  SWITCHBOARD_MAX_OPEN_STREAMS: '0',
} as const;

/** Seeds the shop and starts the four services with fresh ports, tokens and namespace. */
export async function startTestSystem({
  env = {},
  serviceEnv = {},
  replicas = {},
  redisUrl = defaultRedisUrl,
}: {
  env?: Record<string, string>;
  serviceEnv?: Record<string, Record<string, string>>;
  replicas?: Record<string, number>;
  redisUrl?: string;
} = {}): Promise<TestSystem> {
  const namespace = `e2e-${randomUUID().slice(0, 8)}`;
  const workdir = mkdtempSync(join(tmpdir(), 'switchboard-e2e-'));
  const spanFile = join(workdir, 'spans.jsonl');
  const redis = createRedisConnection({ url: redisUrl });
  redis.on('error', () => {}); // drills stop Redis on purpose; this connection reconnects by itself
  const store = new RedisShopStore({ redis, prefix: namespace });
  await seedShop({ store });
  const ports: Record<string, number> = {
    supervisor: await freePort(),
    orders: await freePort(),
    inventory: await freePort(),
    comms: await freePort(),
  };
  for (const [service, count] of Object.entries(replicas)) {
    for (let replica = 2; replica <= count; replica++) ports[`${service}-${replica}`] = await freePort();
  }
  const recentLines = new Map<string, string[]>();
  const launched = await launchSystem({
    redisUrl,
    namespace,
    ports,
    replicas,
    baseEnv: process.env,
    env: { SWITCHBOARD_SPAN_FILE: spanFile, LOG_LEVEL: 'warn', SWITCHBOARD_DRAIN_MS: '3000', ...env },
    serviceEnv,
    readyTimeoutMs: READY_TIMEOUT_MS,
    onLog: ({ service, line }) => {
      const lines = recentLines.get(service) ?? [];
      lines.push(line);
      if (lines.length > KEPT_LINES) lines.shift();
      recentLines.set(service, lines);
    },
  });
  const { access } = launched;
  return {
    launched,
    namespace,
    redis,
    store,
    spanFile,
    cli: async (...args) => {
      // Its own process group, so the deadline ends whatever it started too.
      const run = spawnGroup({
        args: [join(REPO_ROOT, 'packages/cli/bin/switchboard.mjs'), ...args],
        cwd: workdir,
        env: {
          ...process.env,
          SWITCHBOARD_URL: access.supervisorUrl,
          SWITCHBOARD_TOKEN: access.token,
          SWITCHBOARD_ADMIN_TOKEN: access.adminToken,
          SWITCHBOARD_SPAN_FILE: spanFile,
        },
        name: ['switchboard', ...args].join(' '),
      });
      const ended = await run.waitForExit({ timeoutMs: CLI_DEADLINE_MS });
      return { code: typeof ended === 'number' ? ended : null, stdout: run.stdout(), stderr: run.stderr() };
    },
    exitedServices: () =>
      [...launched.services.values()]
        .filter((service) => service.child.exitCode !== null || service.child.signalCode !== null)
        .map(
          (service) =>
            `${service.name} exited (${service.child.exitCode ?? service.child.signalCode}); its last lines:\n${(recentLines.get(service.name) ?? []).join('\n')}`,
        ),
    stop: async () => {
      let timer: NodeJS.Timeout | undefined;
      const stopped = await Promise.race([
        launched.stop().then(() => true),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), STOP_DEADLINE_MS))),
      ]);
      clearTimeout(timer);
      if (!stopped) await Promise.all([...launched.services.values()].map((service) => service.kill()));
      const keys = await redis.keys(`*${namespace}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    },
  };
}

/** The `apr_…` id an `ask` that waits for an approval printed. */
export function approvalIdIn(output: string): string {
  const id = /approvals approve (apr_[a-f0-9]+)/.exec(output)?.[1];
  if (!id) throw new Error(`no approval id in:\n${output}`);
  return id;
}

/** The trace id an `ask` printed. */
export function traceIdIn(output: string): string {
  const id = /Trace: ([a-f0-9]{32})/.exec(output)?.[1];
  if (!id) throw new Error(`no trace id in:\n${output}`);
  return id;
}

/** The task id an `ask` printed. */
export function taskIdIn(output: string): string {
  const id = /Task: ([0-9a-f-]{36})/.exec(output)?.[1];
  if (!id) throw new Error(`no task id in:\n${output}`);
  return id;
}
