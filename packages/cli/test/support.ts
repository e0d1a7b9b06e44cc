import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/switchboard.mjs', import.meta.url));

/** Runs `switchboard` as a user would, in a child process (in `cwd` when given). */
export function switchboard(
  args: string[],
  env: Record<string, string> = {},
  { cwd }: { cwd?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const options = { maxBuffer: 16 * 1024 * 1024, env: { ...process.env, ...env }, ...(cwd ? { cwd } : {}) };
    execFile(process.execPath, [bin, ...args], options, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** True when the text looks like a Node stack trace. */
export const hasStack = (text: string) => /\n\s+at .+\(.+:\d+:\d+\)/.test(text);

/** A loopback port that nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}
