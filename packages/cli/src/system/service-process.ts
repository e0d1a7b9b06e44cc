import { type ChildProcess, spawn } from 'node:child_process';
import type { TeamService } from '@switchboard/team';
import { CliError } from '../errors.ts';

/** One line a service logged, parsed when it was JSON. */
export interface ServiceLogLine {
  service: string;
  line: string;
  record: Record<string, unknown> | undefined;
}

/** A running service process of the system. */
export interface RunningService {
  readonly name: string;
  readonly child: ChildProcess;
  readonly port: number;
  /** Resolves with the exit code (or signal) when the process ends. */
  readonly exited: Promise<number | string>;
  /** SIGTERM, then waits for the exit. The exit is expected: the launcher does not restart it. */
  stop(): Promise<number | string>;
  /** SIGKILL, then waits for the exit. The exit is expected: the launcher does not restart it. */
  kill(): Promise<number | string>;
}

/** Options of {@link ServiceProcess}. */
export interface ServiceProcessOptions {
  service: TeamService;
  /** The file the process runs (absolute): the service's own main, or the CLI's bin (`serviceLaunch`). */
  entry: string;
  /** Its arguments (`serve <service> --team <module>` for the CLI's bin). */
  args?: readonly string[];
  /** 1 for the first process of a service; replica `n` is named `<service>-<n>`. */
  replica: number;
  port: number;
  env: NodeJS.ProcessEnv;
  onLog?: (line: ServiceLogLine) => void;
}

/** How many of a service's last log lines are kept, for the messages about it. */
const KEPT_LINES = 40;

/**
 * One service as a `node` child process: spawned at once, its output split into lines (kept, and
 * handed to `onLog`), its exit recorded. The child gets an IPC channel that nothing is sent on: when
 * this process dies, even by SIGKILL, the channel closes and the service stops too.
 */
export class ServiceProcess implements RunningService {
  readonly name: string;
  readonly child: ChildProcess;
  readonly port: number;
  readonly exited: Promise<number | string>;
  readonly #recent: ServiceLogLine[] = [];
  #expected = false;

  constructor({ service, entry, args = [], replica, port, env, onLog }: ServiceProcessOptions) {
    this.name = replica === 1 ? service.name : `${service.name}-${replica}`;
    this.port = port;
    // An absolute entry, so the services start from any working directory.
    this.child = spawn(process.execPath, [entry, ...args], {
      cwd: process.cwd(),
      env: { ...env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    // The channel is only there to close when this process goes; it must not keep this one alive.
    this.child.channel?.unref();
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
    );
    for (const stream of [this.child.stdout, this.child.stderr]) {
      let buffer = '';
      stream?.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        for (const line of lines) {
          if (!line.trim()) continue;
          const logged = { service: this.name, line, record: parseRecord(line) };
          this.#recent.push(logged);
          if (this.#recent.length > KEPT_LINES) this.#recent.shift();
          onLog?.(logged);
        }
      });
    }
  }

  /** Whether the process ended, or will, because it was told to (`stop()` or `kill()`). */
  get exitExpected(): boolean {
    return this.#expected;
  }

  /** The last `count` lines it logged, oldest first. */
  lastLines(count = 10): ServiceLogLine[] {
    return this.#recent.slice(-count);
  }

  stop(): Promise<number | string> {
    return this.#signal('SIGTERM');
  }

  kill(): Promise<number | string> {
    return this.#signal('SIGKILL');
  }

  /**
   * Resolves once the service's readiness route answers 200. Rejects with a `CliError` naming the
   * service, with its last log lines: `SERVICE_EXITED` when it exits first, `SERVICE_NOT_READY`
   * when it is not ready within `timeoutMs` (then it is killed).
   */
  async ready(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        untilReady(`http://127.0.0.1:${this.port}/readyz`, this.exited),
        this.exited.then((code) => {
          throw new CliError('SERVICE_EXITED', {
            message: `The ${this.name} service exited (${code}) before it was ready:\n${this.#rawLines()}`,
          });
        }),
        new Promise((_, reject) => {
          timer = setTimeout(
            () =>
              reject(
                new CliError('SERVICE_NOT_READY', {
                  message: `The ${this.name} service was not ready within ${timeoutMs} ms:\n${this.#rawLines()}`,
                }),
              ),
            timeoutMs,
          );
        }),
      ]);
    } catch (error) {
      await this.kill();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  #rawLines(): string {
    return this.#recent.map((logged) => logged.line).join('\n');
  }

  #signal(signal: NodeJS.Signals): Promise<number | string> {
    this.#expected = true;
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }
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
