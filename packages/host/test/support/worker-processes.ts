import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));
const script = fileURLToPath(new URL('./agent-worker-process.ts', import.meta.url));

/** How long a worker may take to start, on a busy machine (below the drills' hook and test timeouts). */
const READY_MS = 25_000;

/** A queue worker running as a real child process. */
export interface WorkerProcess {
  name: string;
  child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** Resolves with the exit code (or the signal name). */
  exited: Promise<number | string>;
}

/** Starts a worker process and resolves once it consumes its queue. */
export async function startWorker({
  name,
  prefix,
  queue,
  lookupMs = 500,
  concurrency = 4,
  lockMs = 30_000,
  graceMs = 10_000,
  env = {},
}: {
  name: string;
  prefix: string;
  queue: string;
  lookupMs?: number;
  concurrency?: number;
  lockMs?: number;
  graceMs?: number;
  /** More environment, e.g. the Redis it uses (default: this process's). */
  env?: Record<string, string>;
}): Promise<WorkerProcess> {
  // One process (node, which strips the types itself), so a signal reaches the worker itself, not a
  // wrapper. Its own process group, and an IPC channel: it stops when the test's process goes.
  const child = spawn(process.execPath, [script], {
    cwd: packageDir,
    env: {
      ...process.env,
      ...env,
      PREFIX: prefix,
      QUEUE: queue,
      WORKER: name,
      LOOKUP_MS: String(lookupMs),
      CONCURRENCY: String(concurrency),
      LOCK_MS: String(lockMs),
      GRACE_MS: String(graceMs),
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  const started = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`worker ${name} was not ready within ${READY_MS / 1000} s: ${output}`)),
      READY_MS,
    );
    const check = () => {
      if (output.includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`worker ${name} exited early: ${output}`));
    });
  });
  await started.catch((error: unknown) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // it is gone already
    }
    throw error;
  });
  return { name, child, output: () => output, exited };
}
