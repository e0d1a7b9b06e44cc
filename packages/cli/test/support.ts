import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/switchboard.mjs', import.meta.url));

/**
 * Longest one CLI run may take: a run that hangs fails its test with the command and what it printed,
 * before the test's own timeout.
 */
const CLI_DEADLINE_MS = 45_000;

/**
 * Runs `switchboard` as a user would, in a child process (in `cwd` when given), in its own process
 * group, which is killed whole once it exits (or after 45 s, and the run rejects saying so).
 */
export function switchboard(
  args: string[],
  env: Record<string, string> = {},
  { cwd }: { cwd?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, ...env },
      ...(cwd ? { cwd } : {}),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const killGroup = () => void stopGroup(child);
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, CLI_DEADLINE_MS);
    child.once('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(deadline);
      killGroup();
      if (!timedOut) return resolve({ code: code ?? 1, stdout, stderr });
      reject(
        new Error(
          `switchboard ${args.join(' ')} did not finish within ${CLI_DEADLINE_MS / 1000} s; it printed:\n${stdout}${stderr}`,
        ),
      );
    });
  });
}

/**
 * Ends a child started with `detached: true` (so it leads its own process group) and whatever it
 * started: `signal` to the child, up to `graceMs` for it to exit, then SIGKILL to the whole group.
 */
export async function stopGroup(
  child: ChildProcess,
  { signal = 'SIGTERM', graceMs = 10_000 }: { signal?: NodeJS.Signals; graceMs?: number } = {},
): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
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
}

/**
 * Ports the system never hands out by itself: below the ephemeral range that outgoing connections
 * take their local ports from (32768-60999 on Linux, 49152+ on macOS). A port found free there stays
 * free until a test listens on it, where a probed ephemeral port may meanwhile go to a connection
 * (a busy machine makes thousands: Redis, HTTP), and the service then fails with EADDRINUSE.
 */
const LOW_PORTS = { from: 20_000, to: 32_000 };

/** True when the text looks like a Node stack trace. */
export const hasStack = (text: string) => /\n\s+at .+\(.+:\d+:\d+\)/.test(text);

/** A loopback port that nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  for (;;) {
    const port = LOW_PORTS.from + Math.floor(Math.random() * (LOW_PORTS.to - LOW_PORTS.from));
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
}
