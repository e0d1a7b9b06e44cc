import type { ChildProcess } from 'node:child_process';

/**
 * Ends a child started with `detached: true` (so it leads its own process group) and whatever it
 * started: `signal` to the child, up to `graceMs` for it to exit, then SIGKILL to the whole group.
 * Resolves with how the child ended.
 */
export async function stopGroup(
  child: ChildProcess,
  { signal = 'SIGTERM', graceMs = 10_000 }: { signal?: NodeJS.Signals; graceMs?: number } = {},
): Promise<number | string> {
  const ended = () => child.exitCode ?? child.signalCode;
  if (ended() === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
  }
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // nothing of the group is left
  }
  if (ended() === null) await new Promise((resolve) => child.once('exit', resolve));
  return ended() ?? 'unknown';
}
