import { readFileSync } from 'node:fs';

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
  try {
    // /proc/<pid>/stat: "<pid> (<comm>) <state> ...", where comm may hold spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}

/** Resolves true once the process is gone, false if it still runs after `withinMs`. */
export async function untilGone(pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  // Not our child, so no exit event: look every 100 ms.
  while (isRunning(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}
