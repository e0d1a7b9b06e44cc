import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { stopGroup } from './process-group.ts';

const e2eDir = fileURLToPath(new URL('../..', import.meta.url));

/** A service of the system running as a real child process. */
export interface ServiceProcess {
  child: ChildProcess;
  readyLine: string;
  output(): string;
  /**
   * SIGTERM, then resolves with the exit code once it has flushed and exited; after 30 s, SIGKILL to
   * its process group.
   */
  stop(): Promise<number | string>;
}

/**
 * Starts `src/<script>` with node (which strips the types itself) and waits for its "ready" line (up
 * to `readyMs`). It leads its own process group and has an IPC channel to this process: it stops when
 * the test's process ends, however that ends.
 */
export async function startService(
  script: string,
  env: Record<string, string>,
  { readyMs = 45_000 }: { readyMs?: number } = {},
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [`src/${script}`], {
    cwd: e2eDir,
    env: { ...process.env, ...env },
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
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${script} was not ready within ${readyMs / 1000} s; it printed:\n${output}`)),
      readyMs,
    );
    child.stdout?.on('data', () => {
      const line = output.split('\n').find((text) => text.startsWith('ready'));
      if (line) {
        clearTimeout(timer);
        resolve(line);
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${script} exited early:\n${output}`));
    });
  });
  const stop = () => stopGroup(child, { graceMs: 30_000 });
  const readyLine = await ready.catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { child, readyLine, output: () => output, stop };
}

/**
 * Ports the system never hands out by itself: below the ephemeral range that outgoing connections
 * take their local ports from (32768-60999 on Linux, 49152+ on macOS). A port found free there stays
 * free until a test listens on it, where a probed ephemeral port may meanwhile go to a connection
 * (a busy machine makes thousands: Redis, HTTP), and the service then fails with EADDRINUSE.
 */
const LOW_PORTS = { from: 20_000, to: 32_000 };

/** Whether a server can listen on `port` at 127.0.0.1 now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** A loopback port that is free, and that no outgoing connection will take before a test listens on it. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = LOW_PORTS.from + Math.floor(Math.random() * (LOW_PORTS.to - LOW_PORTS.from));
    if (await canListen(port)) return port;
  }
}
