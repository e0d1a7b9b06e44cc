import { spawn } from 'node:child_process';
import { basename } from 'node:path';
import { commandOf, groupMembers } from './group-members.ts';

/** How many of its last output lines a failure message shows. */
const TAIL_LINES = 40;
/** How long a SIGKILLed group may take to disappear from /proc. */
const KILLED_GONE_MS = 5_000;

/** What {@link spawnGroup} starts. */
export interface SpawnGroupOptions {
  /** The program; default `process.execPath` (Node, which strips the types of a `.ts` script itself). */
  command?: string;
  args?: readonly string[];
  cwd?: string;
  /** Its whole environment (not merged into ours); default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /**
   * An IPC channel to this process (default false): a Switchboard process treats the channel closing
   * as its parent going away, so it stops even when the test's process dies without a teardown.
   */
  ipc?: boolean;
  /** What failure messages call it; default the command's file name and the arguments. */
  name?: string;
  /** The user and group it runs as (switching needs root); default ours. */
  uid?: number;
  gid?: number;
}

/** How {@link GroupProcess.waitForLine} waits. */
export interface WaitForLineOptions {
  /** Default 30 s. */
  timeoutMs?: number;
  /** What the line means, for the failure message ("its ready line"); default `a line matching <pattern>`. */
  describe?: string;
}

/** How {@link GroupProcess.stop} ends the group. */
export interface StopOptions {
  /** Sent to the child alone first; default SIGTERM (SIGINT for what a user stops with Ctrl-C). */
  signal?: NodeJS.Signals;
  /** How long the child has to exit after `signal` before SIGKILL goes to its whole group; default 10 s. */
  graceMs?: number;
}

/** A child leading its own process group; whatever it starts joins the group, and goes with it. */
export interface GroupProcess {
  /** Its pid, which is also the id of its process group. */
  readonly pid: number;
  readonly name: string;
  /** Resolves with its exit code, or the name of the signal that ended it. */
  readonly exited: Promise<number | string>;
  stdout(): string;
  stderr(): string;
  /** Stdout and stderr as they came. */
  output(): string;
  /** Closes the IPC channel (started with `ipc: true`), as the parent going away would. */
  disconnect(): void;
  /** Sends `signal` to the child alone, as `kill <pid>` would. */
  signal(signal: NodeJS.Signals): void;
  /**
   * Resolves with the first line of its output (stdout or stderr, printed so far or from now on) that
   * matches `pattern`. Rejects, naming it and showing its last 40 lines, when `timeoutMs` passes or
   * it exits first. It is not stopped: the test's teardown stops it.
   */
  waitForLine(pattern: RegExp, options?: WaitForLineOptions): Promise<RegExpExecArray>;
  /**
   * Resolves with how it ended once it exits on its own, after killing what it left in its group and
   * reading the rest of its output. When it has not exited within `timeoutMs` (default 30 s), stops it
   * (SIGTERM, SIGKILL after 5 s) and rejects, naming it and showing its last 40 lines.
   */
  waitForExit(options?: { timeoutMs?: number }): Promise<number | string>;
  /**
   * Ends it and whatever it started: `signal` to the child, up to `graceMs` for it to exit, then
   * SIGKILL to the whole group (also when the child exited, for what it left behind). Resolves with
   * how the child ended, once its output is read and the group is gone. Safe to call again.
   */
  stop(options?: StopOptions): Promise<number | string>;
  /** SIGKILL to the whole group now; resolves as {@link GroupProcess.stop} does. */
  kill(): Promise<number | string>;
  /** The pids of its group that still run (zombies do not count). */
  pidsLeft(): number[];
  /** Resolves with the pids of its group still running after `withinMs` (none, when it emptied in time). */
  untilNoneLeft(options: { withinMs: number }): Promise<number[]>;
  /** Throws, naming each process (pid and command line), when anything of its group still runs. */
  assertNoneLeft(): void;
}

/** Resolves after `ms`, without keeping the process alive. */
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Starts `command` detached, so it leads its own process group, with its stdout and stderr piped to
 * this process (and an IPC channel with `ipc`). Throws when it cannot be started.
 *
 * @example
 * const service = spawnGroup({ args: ['src/main.ts'], cwd, env, ipc: true, name: 'orders' });
 * try {
 *   await service.waitForLine(/^ready/, { timeoutMs: 45_000, describe: 'its ready line' });
 * } finally {
 *   await service.stop({ graceMs: 30_000 });
 *   service.assertNoneLeft();
 * }
 */
export function spawnGroup({
  command = process.execPath,
  args = [],
  cwd,
  env = process.env,
  ipc = false,
  name = [basename(command), ...args].join(' '),
  uid,
  gid,
}: SpawnGroupOptions = {}): GroupProcess {
  if (!Array.isArray(args) || args.some((arg) => typeof arg !== 'string')) {
    throw new TypeError(`spawnGroup: args must be an array of strings, e.g. ['src/main.ts']`);
  }
  const child = spawn(command, args, {
    ...(cwd === undefined ? {} : { cwd }),
    env,
    stdio: ['ignore', 'pipe', 'pipe', ...(ipc ? (['ipc'] as const) : [])],
    detached: true,
    ...(uid === undefined ? {} : { uid }),
    ...(gid === undefined ? {} : { gid }),
  });
  const { pid } = child;
  // A failed spawn also emits 'error'; without a listener, that would end the test's process.
  child.on('error', () => {});
  if (pid === undefined) throw new Error(`${name} did not start: is ${command} there and executable?`);

  const text = { stdout: '', stderr: '', output: '' };
  /** Complete lines of both streams in arrival order, and each stream's unfinished last line. */
  const lines: string[] = [];
  const partial = { stdout: '', stderr: '' };
  const onLine = new Set<(line: string) => void>();
  const addLine = (line: string) => {
    lines.push(line);
    for (const listener of onLine) listener(line);
  };
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream]?.setEncoding('utf8');
    child[stream]?.on('data', (chunk: string) => {
      text[stream] += chunk;
      text.output += chunk;
      const parts = (partial[stream] + chunk).split('\n');
      partial[stream] = parts.pop() ?? '';
      for (const line of parts) addLine(line);
    });
  }
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const closed = new Promise<void>((resolve) =>
    child.once('close', () => {
      for (const stream of ['stdout', 'stderr'] as const) {
        if (partial[stream] !== '') addLine(partial[stream]);
        partial[stream] = '';
      }
      resolve();
    }),
  );
  // Its output is complete once its pipes close; a grandchild holding them open must not keep us waiting.
  const drained = exited.then(async (ended) => {
    await Promise.race([closed, delay(1_000)]);
    return ended;
  });
  const ended = () => child.exitCode !== null || child.signalCode !== null;

  const tail = () => {
    const all = [...lines, partial.stdout, partial.stderr].filter((line) => line !== '');
    if (all.length === 0) return 'it printed nothing';
    const last = all.slice(-TAIL_LINES);
    return `its last ${last.length === 1 ? 'line' : `${last.length} lines`}:\n${last.join('\n')}`;
  };

  const pidsLeft = () => groupMembers(pid);
  const untilNoneLeft = async ({ withinMs }: { withinMs: number }) => {
    const deadline = Date.now() + withinMs;
    // The members are not all our children, so there is no exit event to wait for: look every 100 ms.
    for (;;) {
      const left = pidsLeft();
      if (left.length === 0 || Date.now() > deadline) return left;
      await delay(100);
    }
  };

  const stop = async ({ signal = 'SIGTERM', graceMs = 10_000 }: StopOptions = {}) => {
    if (!ended()) {
      child.kill(signal);
      await Promise.race([exited, delay(graceMs)]);
    }
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // nothing of the group is left
    }
    const how = await drained;
    await untilNoneLeft({ withinMs: KILLED_GONE_MS });
    return how;
  };

  return {
    pid,
    name,
    exited,
    stdout: () => text.stdout,
    stderr: () => text.stderr,
    output: () => text.output,
    disconnect: () => child.disconnect(),
    signal: (signal) => void child.kill(signal),
    waitForLine: (pattern, { timeoutMs = 30_000, describe = `a line matching ${pattern}` } = {}) =>
      new Promise((resolve, reject) => {
        const match = (line: string) => {
          pattern.lastIndex = 0;
          return pattern.exec(line);
        };
        for (const line of lines) {
          const found = match(line);
          if (found) return resolve(found);
        }
        let waiting = true;
        const finish = () => {
          waiting = false;
          clearTimeout(timer);
          onLine.delete(look);
        };
        const look = (line: string) => {
          const found = match(line);
          if (!found) return;
          finish();
          resolve(found);
        };
        onLine.add(look);
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`${name} did not print ${describe} within ${timeoutMs / 1000} s; ${tail()}`));
        }, timeoutMs);
        void drained.then((how) => {
          if (!waiting) return;
          finish();
          reject(new Error(`${name} exited (${how}) before it printed ${describe}; ${tail()}`));
        });
      }),
    waitForExit: async ({ timeoutMs = 30_000 } = {}) => {
      const timedOut = Symbol('timed out');
      const how = await Promise.race([exited, delay(timeoutMs).then(() => timedOut)]);
      if (how === timedOut) {
        await stop({ graceMs: 5_000 });
        throw new Error(`${name} did not finish within ${timeoutMs / 1000} s; ${tail()}`);
      }
      return stop();
    },
    stop,
    kill: () => stop({ signal: 'SIGKILL', graceMs: 0 }),
    pidsLeft,
    untilNoneLeft,
    assertNoneLeft: () => {
      const left = pidsLeft();
      if (left.length === 0) return;
      throw new Error(
        `${name} left ${left.length} process${left.length === 1 ? '' : 'es'} of its group running:\n${left.map(commandOf).join('\n')}`,
      );
    },
  };
}
