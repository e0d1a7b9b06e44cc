import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { commandOf, groupMembers, stopGroup } from './process-group.ts';

const appDir = fileURLToPath(new URL('../..', import.meta.url));

/** The demo running as `pnpm demo` runs it, in a child process. */
export interface DemoProcess {
  child: ChildProcess;
  /** Its pid, which is also the id of its process group (the services and CLIs it starts join it). */
  pid: number;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal that ended it). */
  exited: Promise<number | string>;
  /** Resolves once its output matches `pattern`; rejects, with what it printed, if it exits first. */
  until(pattern: RegExp): Promise<void>;
  /** Ctrl-C (SIGINT) and up to 20 s to stop, then SIGKILL to everything of its group. */
  stop(): Promise<void>;
}

/**
 * Starts `node src/main.ts` in its own process group with an IPC channel to this process: the demo
 * stops the system when this process goes away, and {@link DemoProcess.stop} reaches every process it
 * started, however it ended.
 */
export function startDemo({ env }: { env: NodeJS.ProcessEnv }): DemoProcess {
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: appDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    detached: true,
  });
  const { pid } = child;
  if (pid === undefined) throw new Error('the demo did not start: no pid');
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  return {
    child,
    pid,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    until: (pattern) =>
      new Promise((resolve, reject) => {
        const look = () => {
          if (pattern.test(stdout)) resolve();
        };
        look();
        child.stdout?.on('data', look);
        void exited.then((code) =>
          reject(new Error(`the demo exited (${code}) before it printed ${pattern}:\n${stdout}${stderr}`)),
        );
      }),
    stop: () => stopGroup(child, { signal: 'SIGINT', graceMs: 20_000 }),
  };
}

/** How a demo run ended. */
export interface DemoRun {
  code: number | string;
  stdout: string;
  stderr: string;
  /** Processes of its group still running once it exited (services or CLIs it left behind), pid and command. */
  left: string[];
}

/**
 * Runs the demo to its end. When it has not exited within `withinMs` (it was stuck past its own
 * deadline, or stopping), it is stopped, and the run ends with code `stuck` and what it printed. No
 * process of its group outlives the run.
 */
export async function runDemo({
  env,
  withinMs,
}: {
  env: NodeJS.ProcessEnv;
  withinMs: number;
}): Promise<DemoRun> {
  const demo = startDemo({ env });
  let timer: NodeJS.Timeout | undefined;
  try {
    const code = await Promise.race([
      demo.exited,
      new Promise<'stuck'>((resolve) => (timer = setTimeout(() => resolve('stuck'), withinMs))),
    ]);
    const left = groupMembers(demo.pid).map(commandOf);
    const stuck =
      code === 'stuck' ? `\nThe demo had not exited after ${withinMs / 1000} s; the test stopped it.` : '';
    return { code, stdout: demo.stdout(), stderr: demo.stderr() + stuck, left };
  } finally {
    clearTimeout(timer);
    await demo.stop();
  }
}
