import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hasStack, switchboard } from './support.ts';

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});
async function emptyDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-new-'));
  made.push(dir);
  return dir;
}

describe('switchboard new team', () => {
  it('writes a team outside the repository: a supervisor, a worker with a read and a dangerous tool, a test, an eval case, a README', async () => {
    const cwd = await emptyDir();
    const run = await switchboard(['new', 'team', 'travel-desk'], {}, { cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('cd travel-desk');
    const dir = join(cwd, 'travel-desk');
    expect((await readdir(dir)).sort()).toEqual(
      ['.gitignore', 'README.md', 'agents', 'evals', 'package.json', 'team.ts', 'test'].sort(),
    );
    const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({
      name: 'travel-desk',
      type: 'module',
      scripts: { test: 'node --test test/*.test.ts', dev: 'switchboard dev --team .' },
      dependencies: { '@switchboard/team': '^0.1.0', '@switchboard/service': '^0.1.0' },
      devDependencies: { '@switchboard/cli': '^0.1.0', node: '24.21.0' },
    });
    const worker = await readFile(join(dir, 'agents', 'tickets.ts'), 'utf8');
    expect(worker).toContain("risk: 'dangerous'");
    expect(worker).toContain('idempotent: false');
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toContain('pnpm pack:all');
  });

  it('depends on the tarballs of a folder, every @switchboard package through overrides, and refuses a folder without them', async () => {
    const cwd = await emptyDir();
    const packs = join(cwd, 'packs');
    await mkdir(packs);
    const missing = await switchboard(['new', 'team', 'desk', '--packages', 'packs'], {}, { cwd });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('holds no tarball of @switchboard/agent');
    expect(existsSync(join(cwd, 'desk'))).toBe(false);

    for (const name of ['agent', 'delegate', 'service', 'team', 'cli', 'host'])
      await writeFile(join(packs, `switchboard-${name}-0.1.0.tgz`), '');
    const run = await switchboard(['new', 'team', 'desk', '--packages', 'packs'], {}, { cwd });
    expect(run.code).toBe(0);
    const manifest = JSON.parse(await readFile(join(cwd, 'desk', 'package.json'), 'utf8'));
    expect(manifest.dependencies['@switchboard/agent']).toBe(
      `file:${join(packs, 'switchboard-agent-0.1.0.tgz')}`,
    );
    expect(manifest.overrides['@switchboard/host']).toBe(`file:${join(packs, 'switchboard-host-0.1.0.tgz')}`);
  });

  it('refuses a folder that is not empty, and writes nothing', async () => {
    const cwd = await emptyDir();
    await writeFile(join(cwd, 'notes.txt'), 'mine');
    const run = await switchboard(['new', 'team', '.'], {}, { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is not empty');
    expect(hasStack(run.stderr)).toBe(false);
    expect(await readdir(cwd)).toEqual(['notes.txt']);
  });
});

describe('switchboard new agent', () => {
  it('adds a worker to the team: its file, its import and its place in the workers', async () => {
    const cwd = await emptyDir();
    await switchboard(['new', 'team', 'desk'], {}, { cwd });
    const dir = join(cwd, 'desk');
    const run = await switchboard(['new', 'agent', 'weather'], {}, { cwd: dir });
    expect(run.code).toBe(0);
    expect(await readFile(join(dir, 'agents', 'weather.ts'), 'utf8')).toContain("name: 'weather'");
    const team = await readFile(join(dir, 'team.ts'), 'utf8');
    expect(team).toContain("import { weatherWorker } from './agents/weather.ts';");
    expect(team).toMatch(/ticketsWorker,\n\s+weatherWorker,\n\s+\/\/ switchboard new agent: workers/);

    const again = await switchboard(['new', 'agent', 'weather'], {}, { cwd: dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already exists');
    const bad = await switchboard(['new', 'agent', 'Weather Desk'], {}, { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not a worker name');
    const nowhere = await switchboard(['new', 'agent', 'hotels'], {}, { cwd });
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toContain('No team module at team.ts');
  });
});
