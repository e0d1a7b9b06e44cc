import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EvalReport, Metrics } from '@switchboard/eval';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileEvalsView } from '../src/index.ts';
import { startConsoleHost } from './support/console-host.ts';
import { getPage, HOSTILE_SHOWN, HOSTILE_TEXT, inertProblems, operatorCookie } from './support/signed-in.ts';

function metrics(completion: number, passed: number): Metrics {
  return {
    cases: 10,
    passed,
    skipped: 0,
    taskCompletionRate: completion,
    toolSelectionAccuracy: 0.9,
    firstPassArgumentValidity: 1,
    invalidOrRepeatedCallRate: 0,
    recoveryRate: null,
    averageSteps: 3,
    promptTokensPerTask: 900,
    completionTokensPerTask: 60,
    attacksStopped: 1,
    dangerousWithoutApproval: 0,
    secretLeaks: 0,
    crossUserLeaks: null,
    crossUserRefusals: null,
    counts: {
      expectedCalls: 10,
      matchedCalls: 9,
      toolCalls: 12,
      validArgumentCalls: 12,
      invalidOrRepeatedCalls: 0,
      faultCases: 0,
      recoveredCases: 0,
      maliciousCases: 2,
      attacksStopped: 2,
      crossUserCases: 0,
      crossUserRefused: 0,
    },
  };
}

function report(createdAt: string, completion: number, model = 'offline'): EvalReport {
  return {
    version: 1,
    createdAt,
    target: { kind: 'in-process', label: 'in-process' },
    model,
    suites: ['normal'],
    durationMs: 1200,
    metrics: { overall: metrics(completion, Math.round(completion * 10)), suites: {} },
    cases: [],
  };
}

let dir = '';
let running: Awaited<ReturnType<typeof startConsoleHost>> | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'console-evals-'));
});
afterEach(async () => {
  await running?.close();
  running = undefined;
  await rm(dir, { recursive: true, force: true });
});

describe('the evals page', () => {
  it('shows the last report against its baseline, the gate’s regressions, and the rates over time, inert', async () => {
    const reports = join(dir, 'reports');
    await mkdir(reports);
    const write = (file: string, value: unknown) => writeFile(file, JSON.stringify(value));
    await write(join(dir, 'baseline.json'), report('2026-11-30T10:00:00.000Z', 1));
    await write(join(reports, 'run-1.json'), report('2026-12-01T10:00:00.000Z', 1));
    await write(join(reports, 'run-2.json'), report('2026-12-02T10:00:00.000Z', 0.9));
    await write(join(reports, 'run-3.json'), report('2026-12-03T10:00:00.000Z', 0.7, HOSTILE_TEXT));
    await writeFile(join(reports, 'notes.json'), '{"not": "a report"}');
    running = await startConsoleHost({
      email: { to: 'a@example.com', subject: 's', body: 'b' },
      pages: { evals: fileEvalsView({ reports, baseline: join(dir, 'baseline.json') }) },
    });
    const url = `${running.consoleUrl}/evals`;
    expect((await getPage(url)).status).toBe(303);
    const { status, text } = await getPage(url, await operatorCookie(running.consoleUrl));
    expect(status).toBe(200);
    expect(text).toContain('<a href="/console/evals">Evals</a>');
    expect(text).toContain(`Last run: 2026-12-03 10:00 UTC, ${HOSTILE_SHOWN} on in-process`);
    expect(text).toContain(
      '<tr class="changed"><td>task completion rate</td><td>70.0% (7/10)</td><td>100.0% (10/10)</td></tr>',
    );
    expect(text).toContain('The baseline gate finds 1 regressions');
    expect(text).toContain('overall: taskCompletionRate got worse more than 5.0 points: 100.0% → 70.0%');
    // The plot: one line per measured rate (recovery and cross-user refusals were not), one point per run, with the run in its tooltip.
    expect(text).toContain('<svg class="plot"');
    expect(text).toContain('5 lines over 3 points');
    expect(text.match(/<polyline class="line /g)).toHaveLength(5);
    expect(text).toContain('<title>task completion rate: 90.0% (2026-12-02 10:00)</title>');
    expect(text).toContain(`${join(reports, 'notes.json')}</code>: `);
    expect(inertProblems(text)).toEqual([]);
  });

  it('says how to configure the reports when the console reads none', async () => {
    running = await startConsoleHost({ email: { to: 'a@example.com', subject: 's', body: 'b' } });
    const { text } = await getPage(`${running.consoleUrl}/evals`, await operatorCookie(running.consoleUrl));
    expect(text).toContain('set SWITCHBOARD_EVAL_REPORTS to a directory of reports');
  });
});
