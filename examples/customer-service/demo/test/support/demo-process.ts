import { fileURLToPath } from 'node:url';
import { commandOf, type GroupProcess, spawnGroup } from '@switchboard/test-processes';

const appDir = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Starts `node src/main.ts` as `pnpm demo` runs it, in its own process group (the services and CLIs
 * it starts join it) with an IPC channel to this process: the demo stops the system when this process
 * goes away, and {@link stopDemo} reaches every process it started, however it ended.
 */
export function startDemo({ env }: { env: NodeJS.ProcessEnv }): GroupProcess {
  return spawnGroup({ args: ['src/main.ts'], cwd: appDir, env, ipc: true, name: 'the demo' });
}

/** Ctrl-C (SIGINT) and up to 20 s to stop, then SIGKILL to everything of its group. */
export const stopDemo = (demo: GroupProcess) => demo.stop({ signal: 'SIGINT', graceMs: 20_000 });

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
    const left = demo.pidsLeft().map(commandOf);
    const stuck =
      code === 'stuck' ? `\nThe demo had not exited after ${withinMs / 1000} s; the test stopped it.` : '';
    return { code, stdout: demo.stdout(), stderr: demo.stderr() + stuck, left };
  } finally {
    clearTimeout(timer);
    await stopDemo(demo);
  }
}
