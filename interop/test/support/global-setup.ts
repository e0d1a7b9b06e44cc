import { fileURLToPath } from 'node:url';
import { spawnGroup } from '@switchboard/test-processes';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The bundled team's supervisor, as every peer client is pointed at it. */
    supervisorUrl: string;
    /** A user's bearer token for it. */
    token: string;
    /** The public JWK of the supervisor's key, which signs its card. */
    cardKey: Record<string, unknown>;
  }
}

/** Longest the team may take to start on a busy machine, below the hook's timeout. */
const READY_MS = 100_000;

/**
 * Starts the bundled team once for the whole package (`bundled-team.ts` beside this file, its own process group
 * with an IPC channel, so it stops when this process ends however that ends) and hands every test
 * file its supervisor's URL and a user's token through `inject`. Stops it (it drains) after the last.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const team = spawnGroup({
    args: ['test/support/bundled-team.ts'],
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: process.env,
    ipc: true,
    name: 'the bundled team',
  });
  try {
    const [, access = '{}'] = await team.waitForLine(/^ready (.*)$/, {
      timeoutMs: READY_MS,
      describe: 'its ready line',
    });
    const { supervisorUrl, token, cardKey } = JSON.parse(access) as {
      supervisorUrl: string;
      token: string;
      cardKey?: Record<string, unknown>;
    };
    if (!cardKey) throw new Error('the bundled team printed no card key: its supervisor has no service key');
    project.provide('supervisorUrl', supervisorUrl);
    project.provide('token', token);
    project.provide('cardKey', cardKey);
  } catch (error) {
    await team.stop({ graceMs: 30_000 });
    throw error;
  }
  return async () => {
    await team.stop({ graceMs: 30_000 });
  };
}
