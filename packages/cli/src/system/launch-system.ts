import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { SystemAccess } from '@switchboard/customer-service/system';
import { REPO_ROOT, SYSTEM_SERVICES, type SystemService } from './system-services.ts';

/** One line a service logged, parsed when it was JSON. */
export interface ServiceLogLine {
  service: string;
  line: string;
  record: Record<string, unknown> | undefined;
}

/** Options of {@link launchSystem}. */
export interface LaunchSystemOptions {
  redisUrl: string;
  /** Redis key namespace of this system (default `switchboard`); a test uses a unique one. */
  namespace?: string;
  /** Ports by service name (default 4100-4103); 0 is not allowed, the card needs the real port. */
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
}

/** A running service process of the system. */
export interface RunningService {
  readonly name: string;
  readonly child: ChildProcess;
  readonly port: number;
  /** Resolves with the exit code (or signal) when the process ends. */
  readonly exited: Promise<number | string>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<number | string>;
  /** SIGKILL, then waits for the exit. */
  kill(): Promise<number | string>;
}

/** A running system. */
export interface LaunchedSystem {
  readonly access: SystemAccess;
  readonly services: ReadonlyMap<string, RunningService>;
  /** Starts one service again (after it stopped), and waits until it is ready. */
  restart(name: string): Promise<RunningService>;
  /** Stops every service (SIGTERM and drain), supervisor first. */
  stop(): Promise<void>;
}

const token = (label: string) => `${label}-${randomBytes(18).toString('base64url')}`;

/**
 * Starts the customer-service system: each service its own `node` child process (workers first,
 * then the supervisor, which finds them in the registry), with fresh tokens, waiting until each
 * logs that it is ready. Used by `switchboard dev`, the demo and the end-to-end tests.
 */
export async function launchSystem({
  redisUrl,
  namespace = 'switchboard',
  ports = {},
  replicas = {},
  baseEnv = {},
  env = {},
  serviceEnv = {},
  onLog,
  readyTimeoutMs = 60_000,
}: LaunchSystemOptions): Promise<LaunchedSystem> {
  const access: SystemAccess = {
    supervisorUrl: `http://127.0.0.1:${ports.supervisor ?? 4100}`,
    token: token('cust'),
    adminToken: token('ops'),
    serviceToken: token('svc'),
    redisUrl,
    namespace,
  };
  const common: Record<string, string> = {
    REDIS_URL: redisUrl,
    SWITCHBOARD_NAMESPACE: namespace,
    SWITCHBOARD_SERVICE_TOKEN: access.serviceToken,
    SWITCHBOARD_API_TOKENS: `${access.token}=customer`,
    SWITCHBOARD_OPERATOR_TOKENS: `${access.adminToken}=operator`,
    ...env,
  };
  const services = new Map<string, RunningService>();
  const portOf = (service: SystemService, replica: number) =>
    replica === 1
      ? (ports[service.name] ?? service.port)
      : (ports[`${service.name}-${replica}`] ?? (ports[service.name] ?? service.port) + 100 * (replica - 1));
  const start = (service: SystemService, replica = 1) =>
    startService({
      service,
      replica,
      port: portOf(service, replica),
      env: { ...baseEnv, ...common, ...(serviceEnv[service.name] ?? {}) },
      ...(onLog ? { onLog } : {}),
      readyTimeoutMs,
    });
  const stopAll = async () => {
    await services.get('supervisor')?.stop();
    await Promise.all([...services.values()].map((running) => running.stop()));
  };
  try {
    const workers = SYSTEM_SERVICES.filter((service) => service.name !== 'supervisor').flatMap((service) =>
      Array.from({ length: Math.max(1, replicas[service.name] ?? 1) }, (_, i) => ({
        service,
        replica: i + 1,
      })),
    );
    const started = await Promise.all(workers.map(({ service, replica }) => start(service, replica)));
    for (const running of started) services.set(running.name, running);
    const supervisor = SYSTEM_SERVICES.find((service) => service.name === 'supervisor');
    if (supervisor) services.set('supervisor', await start(supervisor));
  } catch (error) {
    await stopAll();
    throw error;
  }
  return {
    access,
    services,
    restart: async (name) => {
      const [base = '', replica = '1'] = name.split(/-(?=\d+$)/);
      const service = SYSTEM_SERVICES.find((entry) => entry.name === base);
      if (!service) throw new Error(`There is no service "${name}".`);
      const running = await start(service, Number(replica));
      services.set(name, running);
      return running;
    },
    stop: stopAll,
  };
}

async function startService({
  service,
  replica,
  port,
  env,
  onLog,
  readyTimeoutMs,
}: {
  service: SystemService;
  replica: number;
  port: number;
  env: NodeJS.ProcessEnv;
  onLog?: (line: ServiceLogLine) => void;
  readyTimeoutMs: number;
}): Promise<RunningService> {
  // An absolute entry, so the services start from any working directory.
  const child = spawn(process.execPath, [join(REPO_ROOT, service.entry)], {
    cwd: process.cwd(),
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const name = replica === 1 ? service.name : `${service.name}-${replica}`;
  const recent: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    let buffer = '';
    stream?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.trim()) continue;
        recent.push(line);
        if (recent.length > 40) recent.shift();
        onLog?.({ service: name, line, record: parseRecord(line) });
      }
    });
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      untilReady(`http://127.0.0.1:${port}/readyz`, exited),
      exited.then((code) => {
        throw new Error(`The ${name} service exited (${code}) before it was ready:\n${recent.join('\n')}`);
      }),
      new Promise((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new Error(
                `The ${name} service was not ready within ${readyTimeoutMs} ms:\n${recent.join('\n')}`,
              ),
            ),
          readyTimeoutMs,
        );
      }),
    ]);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  } finally {
    clearTimeout(timer);
  }
  const signal = (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    return exited;
  };
  return {
    name,
    child,
    port,
    exited,
    stop: () => signal('SIGTERM'),
    kill: () => signal('SIGKILL'),
  };
}

/** Polls the service's readiness route until it answers 200 (or the process exits). */
async function untilReady(url: string, exited: Promise<unknown>): Promise<void> {
  let done = false;
  void exited.then(() => {
    done = true;
  });
  while (!done) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function parseRecord(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
