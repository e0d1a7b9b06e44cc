import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** `/proc/<pid>/stat` as [state, process group], or undefined when the process is gone. */
function statOf(pid: string): [string, number] | undefined {
  try {
    // "<pid> (<comm>) <state> <ppid> <pgrp> ...", where comm may hold spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state = '', , pgrp = ''] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return [state, Number(pgrp)];
  } catch {
    return undefined;
  }
}

/**
 * The processes of a process group that still run. On Linux, zombies do not count: an orphan that
 * exited stays one where PID 1 does not reap (some containers). Elsewhere, only whether any is left:
 * `[pgid]` or `[]`.
 */
export function groupMembers(pgid: number): number[] {
  try {
    process.kill(-pgid, 0);
  } catch {
    return [];
  }
  if (process.platform !== 'linux') return [pgid];
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      const stat = statOf(pid);
      return stat !== undefined && stat[1] === pgid && stat[0] !== 'Z';
    })
    .map(Number);
}

/** `<pid> <command line>`, to name a process left running in a failure message. */
export function commandOf(pid: number): string {
  try {
    return `${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()}`;
  } catch {
    return String(pid);
  }
}

/** Resolves with the group's members still running after `withinMs` (none, when it emptied in time). */
export async function untilGroupGone(pgid: number, withinMs: number): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  // The members are not all our children, so there is no exit event to wait for: look every 100 ms.
  for (;;) {
    const members = groupMembers(pgid);
    if (members.length === 0 || Date.now() > deadline) return members;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Ends a child started with `detached: true` (so it leads its own process group) and whatever it
 * started: `signal` to the child, up to `graceMs` for it to exit, then SIGKILL to the whole group.
 */
export async function stopGroup(
  child: ChildProcess,
  { signal = 'SIGTERM', graceMs = 10_000 }: { signal?: NodeJS.Signals; graceMs?: number } = {},
): Promise<void> {
  const { pid } = child;
  if (pid === undefined) return;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
  }
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // nothing of the group is left
  }
}
