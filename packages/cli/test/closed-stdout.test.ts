import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hasStack } from './support.ts';

const bin = fileURLToPath(new URL('../bin/switchboard.mjs', import.meta.url));

/** Runs the CLI with its stdout closed by the reader before the command writes, as `| head -0` would. */
function runWithClosedStdout(args: readonly string[]) {
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

describe('switchboard piped into a reader that stops early', () => {
  it('ends quietly with exit code 0 and no stack when stdout is closed', async () => {
    for (const args of [['--help'], ['cards', '--help']]) {
      const run = await runWithClosedStdout(args);
      expect(run).toEqual({ code: 0, signal: null, stderr: '' });
    }
  });

  it('gives `head -1` its first line and the pipeline exit code 0', () => {
    const run = spawnSync(
      'bash',
      ['-c', 'set -o pipefail; "$0" "$1" --help | head -1', process.execPath, bin],
      { encoding: 'utf8', timeout: 30_000 },
    );
    expect(run.stdout).toBe('Usage: switchboard [options] [command]\n');
    expect(hasStack(run.stderr)).toBe(false);
    expect(run.status).toBe(0);
  });
});
