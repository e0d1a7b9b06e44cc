import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('..', import.meta.url));

/**
 * Imports `specifier` in a fresh Node process, by package name as a user would, and answers its
 * export names. With `withoutOpenAI`, any import of the `openai` client fails in that process, as it
 * would for a user who did not install it.
 */
async function exportsOf(specifier: string, { withoutOpenAI }: { withoutOpenAI: boolean }) {
  const script = `
    import { registerHooks } from 'node:module';
    if (${withoutOpenAI}) {
      registerHooks({
        resolve(specifier, context, next) {
          if (specifier === 'openai' || specifier.startsWith('openai/')) throw new Error('openai was imported');
          return next(specifier, context);
        },
      });
    }
    try {
      const module = await import(${JSON.stringify(specifier)});
      console.log(JSON.stringify({ names: Object.keys(module).sort() }));
    } catch (error) {
      console.log(JSON.stringify({ error: String(error.message) }));
    }`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '--eval', script], {
    cwd: packageDir,
  });
  return JSON.parse(stdout) as { names?: string[]; error?: string };
}

describe('entry points', () => {
  it('the offline planner loads by its package name, without the openai client', async () => {
    expect(await exportsOf('@switchboard/offline-model', { withoutOpenAI: true })).toEqual({
      names: ['OfflineModel'],
    });
  });
});
