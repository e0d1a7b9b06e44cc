import { fileURLToPath } from 'node:url';
import { freePort, spawnGroup } from '@switchboard/test-processes';

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
export async function switchboard(
  args: string[],
  env: Record<string, string> = {},
  { cwd }: { cwd?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const run = spawnGroup({
    args: [bin, ...args],
    env: { ...process.env, ...env },
    ...(cwd ? { cwd } : {}),
    name: `switchboard ${args.join(' ')}`,
  });
  const ended = await run.waitForExit({ timeoutMs: CLI_DEADLINE_MS });
  return { code: typeof ended === 'number' ? ended : 1, stdout: run.stdout(), stderr: run.stderr() };
}

/** True when the text looks like a Node stack trace. */
export const hasStack = (text: string) => /\n\s+at .+\(.+:\d+:\d+\)/.test(text);

/** A loopback port that nothing listens on (it was free a moment ago), below the ephemeral range. */
export const closedPort = (): Promise<number> => freePort();
