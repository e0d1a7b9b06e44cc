import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LaunchedSystem, launchSystem, REPO_ROOT } from '@switchboard/cli';
import { RedisShopStore, seedShop } from '@switchboard/customer-service';
import { Redis } from 'ioredis';
import { freePort } from './services.ts';

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
  /** Runs `switchboard <args>` as a user would, against this system. */
  cli(...args: string[]): Promise<CliRun>;
  stop(): Promise<void>;
}

const defaultRedisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

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
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
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
  const launched = await launchSystem({
    redisUrl,
    namespace,
    ports,
    replicas,
    baseEnv: process.env,
    env: { SWITCHBOARD_SPAN_FILE: spanFile, LOG_LEVEL: 'warn', SWITCHBOARD_DRAIN_MS: '3000', ...env },
    serviceEnv,
  });
  const { access } = launched;
  return {
    launched,
    namespace,
    redis,
    store,
    spanFile,
    cli: (...args) =>
      new Promise((resolve) => {
        const child = spawn(
          process.execPath,
          [join(REPO_ROOT, 'packages/cli/bin/switchboard.mjs'), ...args],
          {
            cwd: workdir,
            env: {
              ...process.env,
              SWITCHBOARD_URL: access.supervisorUrl,
              SWITCHBOARD_TOKEN: access.token,
              SWITCHBOARD_ADMIN_TOKEN: access.adminToken,
              SWITCHBOARD_SPAN_FILE: spanFile,
            },
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
        });
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
        });
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      }),
    stop: async () => {
      await launched.stop();
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
