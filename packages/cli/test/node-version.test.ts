import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hasStack } from './support.ts';

const bin = fileURLToPath(new URL('../bin/switchboard.mjs', import.meta.url));

describe('switchboard on a Node.js that cannot run TypeScript', () => {
  it('says which Node.js it needs and the command that has it, with no stack trace (exit 2)', () => {
    // Node 24 with type stripping off stands for an older Node (20 has none): the same `.ts` sources fail.
    const run = spawnSync(process.execPath, ['--no-experimental-strip-types', bin, '--help'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('switchboard needs Node.js 24 or newer');
    expect(run.stderr).toContain('pnpm exec switchboard');
    expect(run.stderr).not.toContain('ERR_UNKNOWN_FILE_EXTENSION');
    expect(hasStack(run.stderr)).toBe(false);
    expect(run.stdout).toBe('');
  });
});
