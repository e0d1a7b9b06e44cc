import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const e2eDir = fileURLToPath(new URL('../..', import.meta.url));

/** A service of the system running as a real child process. */
export interface ServiceProcess {
  child: ChildProcess;
  readyLine: string;
  output(): string;
  /** SIGTERM, then resolves with the exit code once it has flushed and exited. */
  stop(): Promise<number | string>;
}

/** Starts `src/<script>` with node (which strips the types itself) and waits for its "ready" line. */
export async function startService(script: string, env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [`src/${script}`], {
    cwd: e2eDir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
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
  const readyLine = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start:\n${output}`)), 30_000);
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
  return {
    child,
    readyLine,
    output: () => output,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** A loopback port that is free right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}
