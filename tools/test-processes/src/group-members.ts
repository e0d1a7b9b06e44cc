import { readdirSync, readFileSync } from 'node:fs';

/** `/proc/<pid>/stat` as [state, process group], or undefined when the process is gone. */
function statOf(pid: number | string): [string, number] | undefined {
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
 * Whether a process runs: it exists and is not a zombie. An orphan that exited stays a zombie where
 * PID 1 does not reap (some containers), so `process.kill(pid, 0)` alone would still find it.
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  const stat = statOf(pid);
  return stat !== undefined && stat[0] !== 'Z';
}

/**
 * The processes of process group `pgid` that still run. On Linux, zombies do not count (see
 * {@link isRunning}). Elsewhere, only whether any is left: `[pgid]` or `[]`.
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

/**
 * `<pid> <command line> (state <S>, waiting in <kernel function>)`, to name a process left running in a
 * failure message: the state and the wait say whether it is stuck (e.g. blocked writing to a full pipe)
 * or still working.
 */
export function commandOf(pid: number): string {
  const read = (file: string) => {
    try {
      return readFileSync(`/proc/${pid}/${file}`, 'utf8');
    } catch {
      return undefined;
    }
  };
  const command = read('cmdline')?.split('\0').join(' ').trim();
  if (command === undefined) return String(pid);
  const state = read('stat')?.split(') ')[1]?.split(' ')[0] ?? '?';
  return `${pid} ${command} (state ${state}, waiting in ${read('wchan')?.trim() || 'nothing'})`;
}
