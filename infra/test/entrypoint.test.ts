import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { withServiceRuntime } from '@switchboard/team';
import { describe, expect, it } from 'vitest';
import { INFRA_DIR, REPO_ROOT, SERVICES, serviceDir } from './support/paths.ts';

const SCRIPT = join(INFRA_DIR, 'entrypoint.sh');

/** Runs the entry script with only the given environment (plus PATH), as the image's ENTRYPOINT does. */
function runEntrypoint(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      '/bin/sh',
      [SCRIPT, ...args],
      { env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, ...env }, timeout: 20_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe('infra/entrypoint.sh', () => {
  it('refuses an unknown service with exit 2, naming the four choices', async () => {
    const result = await runEntrypoint([], { SWITCHBOARD_SERVICE: 'billing' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown service "billing"');
    expect(result.stderr).toContain('supervisor, orders, inventory, comms');
  });

  it('refuses to guess when no service is chosen', async () => {
    const result = await runEntrypoint([], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('set SWITCHBOARD_SERVICE');
    expect(result.stderr).toContain('supervisor, orders, inventory, comms');
  });

  it('refuses a name that only contains a service name', async () => {
    const result = await runEntrypoint(['orders inventory'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown service');
  });

  it.each(SERVICES)('resolves %s to its examples/customer-service/<service>/src/main.ts', async (service) => {
    const result = await runEntrypoint([], {
      SWITCHBOARD_SERVICE: service,
      SWITCHBOARD_ENTRYPOINT_DRY_RUN: '1',
    });
    expect(result.code).toBe(0);
    const appDir = join(REPO_ROOT, serviceDir(service));
    expect(result.stdout.trim().split('\n').at(-1)).toBe(`cd ${appDir} && exec node src/main.ts`);
    expect(existsSync(join(appDir, 'src/main.ts'))).toBe(true);
  });

  it.each<Record<string, string>>([
    {},
    { NODE_OPTIONS: '--max-semi-space-size=8 --enable-source-maps', MALLOC_ARENA_MAX: '4' },
  ])(
    "starts node with the memory settings the launcher uses, a deployment's own winning (%o)",
    async (own) => {
      const result = await runEntrypoint(['orders'], { ...own, SWITCHBOARD_ENTRYPOINT_DRY_RUN: '1' });
      const launcher = withServiceRuntime(own);
      expect(result.stdout.split('\n')[0]).toBe(
        `NODE_OPTIONS=${launcher.NODE_OPTIONS} MALLOC_ARENA_MAX=${launcher.MALLOC_ARENA_MAX}`,
      );
    },
  );

  it('execs node on the TypeScript entry with no loader: Node strips the types itself', () => {
    const execs = readFileSync(SCRIPT, 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => /^exec\s/.test(line));
    expect(execs).toEqual(['exec node src/main.ts']);
  });

  it('lets the first argument win over SWITCHBOARD_SERVICE', async () => {
    const result = await runEntrypoint(['comms'], {
      SWITCHBOARD_SERVICE: 'orders',
      SWITCHBOARD_ENTRYPOINT_DRY_RUN: '1',
    });
    expect(result.stdout).toContain(join(REPO_ROOT, serviceDir('comms')));
  });

  it.each(SERVICES)('really starts %s with node alone (which stops at its missing key)', async (service) => {
    const result = await runEntrypoint([], { SWITCHBOARD_SERVICE: service });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`The ${service} service cannot start`);
    expect(result.stderr).toContain('SWITCHBOARD_SERVICE_KEY: is required');
  });
});
