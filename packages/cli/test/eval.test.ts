import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EvalReport } from '@switchboard/eval';
import { describe, expect, it } from 'vitest';
import { hasStack, switchboard } from './support.ts';

const FIXTURES = fileURLToPath(new URL('../../eval/test/fixtures/cases/', import.meta.url));

describe('switchboard eval', () => {
  it('runs a suite in process, prints the metrics table and writes JSON and Markdown reports', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-eval-cli-'));
    const run = await switchboard([
      'eval',
      'normal',
      '--cases',
      FIXTURES,
      '--out',
      join(dir, 'report.json'),
      '--markdown',
      join(dir, 'report.md'),
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Switchboard evals: 2 cases run, 2 passed, on offline (in process)');
    expect(run.stdout).toMatch(/task completion rate\s+100\.0% \(2\/2\)\s+100\.0% \(2\/2\)/);
    expect(run.stdout).toContain('No case failed.');
    expect(run.stderr).toContain('✓ normal/fixture-order-two-step');
    const report = EvalReport.parse(JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')));
    expect(report.cases.map((result) => result.status)).toEqual(['passed', 'passed']);
    expect(await readFile(join(dir, 'report.md'), 'utf8')).toContain(
      '| task completion rate | 100.0% (2/2) |',
    );

    // The same run against a baseline that took fewer steps: a regression, exit 1.
    report.metrics.overall.averageSteps = 1;
    await writeFile(join(dir, 'better.json'), JSON.stringify(report));
    const gated = await switchboard([
      'eval',
      'normal',
      '--cases',
      FIXTURES,
      '--baseline',
      join(dir, 'better.json'),
      '--json',
    ]);
    expect(gated.code).toBe(1);
    expect(EvalReport.safeParse(JSON.parse(gated.stdout)).success).toBe(true);
    expect(gated.stderr).toMatch(/regression: overall: averageSteps got worse more than 10%: 1 → \d/);
  }, 60_000);

  it('exits 2 naming what to fix: an unknown suite, a malformed case file, a bad flag, an unreadable baseline', async () => {
    const suite = await switchboard(['eval', 'nightly']);
    expect(suite).toMatchObject({ code: 2, stdout: '' });
    expect(suite.stderr).toContain(
      'Unknown suite "nightly": give normal, boundary, malicious, failure, or no suite',
    );

    const cwd = await mkdtemp(join(tmpdir(), 'switchboard-eval-cli-'));
    await mkdir(join(cwd, 'evals', 'normal'), { recursive: true });
    await writeFile(
      join(cwd, 'evals', 'normal', 'foo.yaml'),
      'id: foo\nsuite: normal\ntitle: x\nturns: [{ user: hi }]\nexpect: { tools: { match: any, calls: [{ tool: get_order }] } }\n',
    );
    const malformed = await switchboard(['eval', '--cases', 'evals'], {}, { cwd });
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain(
      'evals/normal/foo.yaml: expect.tools.match must be subset, exact or in-order',
    );
    expect(hasStack(malformed.stderr)).toBe(false);

    const threshold = await switchboard(['eval', '--threshold', 'lots']);
    expect(threshold.code).toBe(2);
    expect(threshold.stderr).toContain('--threshold lots must be a number from 0 to 1');

    const baseline = await switchboard([
      'eval',
      '--baseline',
      join(cwd, 'missing.json'),
      '--cases',
      FIXTURES,
    ]);
    expect(baseline.code).toBe(2);
    expect(baseline.stderr).toContain(`Cannot read the baseline ${join(cwd, 'missing.json')}`);
  }, 60_000);
});
