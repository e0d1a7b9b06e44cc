import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, rootScripts, runRootScript, WorkspaceCopy } from './support/workspace-copy.ts';

/**
 * The lint step's clone check (jscpd with .jscpd.json): wiring written twice is a concept with two
 * owners. Run for real, on the repository and on a copy with hosting wiring pasted into another package.
 */
describe('the clone check', () => {
  const copies: WorkspaceCopy[] = [];
  afterAll(() => {
    for (const copy of copies) copy.remove();
  });

  it('runs in the lint step, over the sources and the test supports', () => {
    expect(rootScripts()['lint:clones']).toMatch(/^jscpd --config \.jscpd\.json /);
  });

  it('finds nothing repeated in the repository', () => {
    const run = runRootScript('lint:clones', REPO_ROOT);
    expect(run.status, run.output).toBe(0);
  });

  it('fails the lint step, naming both files, when hosting wiring is written a second time', () => {
    const copy = new WorkspaceCopy();
    copies.push(copy);
    const wiring = readFileSync(join(REPO_ROOT, 'packages/host/src/host-agent.ts'), 'utf8');
    copy.write('packages/service/src/host-again.ts', wiring);
    const run = copy.checkClones();
    expect(run.status).not.toBe(0);
    expect(run.output).toContain('service/src/host-again.ts');
    expect(run.output).toContain('host/src/host-agent.ts');
  }, 60_000);
});
