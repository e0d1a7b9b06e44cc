import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLED_TEAM, loadTeam, REPO_ROOT } from '../src/team/load-team.ts';
import { hasStack, switchboard } from './support.ts';

describe('the team a command runs', () => {
  it('is the bundled example by default, found from the working directory', async () => {
    const { team, module } = await loadTeam({ cwd: join(REPO_ROOT, 'packages', 'cli') });
    expect(module).toBe(join(REPO_ROOT, BUNDLED_TEAM));
    expect(team.supervisor.name).toBe('supervisor');
    expect(team.workers.map((worker) => worker.name)).toEqual(['orders', 'inventory', 'comms']);
  });

  it('is the one --team names, as its folder or its module', async () => {
    const byFolder = await loadTeam({ team: 'examples/customer-service', cwd: REPO_ROOT });
    expect(byFolder.module).toBe(join(REPO_ROOT, BUNDLED_TEAM));
    const byModule = await loadTeam({ team: BUNDLED_TEAM, cwd: REPO_ROOT });
    expect(byModule.team.title).toBe('customer-service system');
  });

  it('says what to pass when there is no team, or the module is not one', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'switchboard-no-team-'));
    const missing = await switchboard(['seed', '--team', 'nowhere'], {}, { cwd });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No team at nowhere: pass a team module');
    await writeFile(join(cwd, 'team.ts'), 'export default { name: "not a team" };\n');
    const wrong = await switchboard(['seed', '--team', '.'], {}, { cwd });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('team.ts is not a team module: its default export must be defineTeam(');
  });
});

describe('switchboard serve', () => {
  it('serves a service of the team by name, and names the services when it has no such one', async () => {
    const run = await switchboard(['serve', 'hotels'], {}, { cwd: REPO_ROOT });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /has no service "hotels"; its services are supervisor, orders, inventory, comms/,
    );
    expect(hasStack(run.stderr)).toBe(false);
  });
});
