import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnGroup } from '@switchboard/test-processes';
import { describe, expect, it } from 'vitest';
import { hasStack, switchboard } from './support.ts';

const writer = fileURLToPath(new URL('./span-writer.ts', import.meta.url));

const trace = 'a'.repeat(32);
const span = (
  spanId: string,
  parent: string | undefined,
  name: string,
  service: string,
  start: number,
  extra = {},
) => ({
  traceId: trace,
  spanId,
  ...(parent ? { parentSpanId: parent } : {}),
  name,
  kind: 'internal',
  service,
  startMs: start,
  endMs: start + 10,
  durationMs: 10,
  status: { code: 'unset' },
  attributes: {},
  ...extra,
});

describe('switchboard trace', () => {
  it('draws the last trace of the span file as a tree', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-trace-'));
    const file = join(dir, 'spans.jsonl');
    const spans = [
      span('1'.repeat(16), undefined, 'invoke_agent supervisor', 'supervisor', 1),
      span('2'.repeat(16), '1'.repeat(16), 'process a2a.orders', 'orders', 2),
      span('3'.repeat(16), '2'.repeat(16), 'execute_tool track_parcel', 'orders', 3, {
        status: { code: 'error', message: 'Parcel tracking is unavailable right now.' },
        attributes: { 'error.type': 'TOOL_FAILED' },
      }),
    ];
    await writeFile(file, `${spans.map((item) => JSON.stringify(item)).join('\n')}\n`);
    const { code, stdout } = await switchboard(['trace', 'last', '--file', file]);
    expect(code).toBe(0);
    expect(stdout).toContain(`Trace ${trace}: 3 spans across 2 services (supervisor, orders)`);
    expect(stdout).toMatch(/invoke_agent supervisor\s+supervisor/);
    expect(stdout).toMatch(/└─ process a2a\.orders\s+orders/);
    expect(stdout).toMatch(
      /execute_tool track_parcel\s+orders\s+10 ms\s+ERROR\s+"Parcel tracking is unavailable right now\." error=TOOL_FAILED/,
    );
  });

  it('says what is wrong with a bad trace id or a missing span file, without a stack trace', async () => {
    const bad = await switchboard(['trace', 'not-a-trace']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      '"not-a-trace" is not a trace id: give the 32 hex digits of a trace id, or "last".',
    );
    const missing = await switchboard(['trace', 'last', '--file', '/nonexistent/spans.jsonl']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^Cannot read the trace: /);
    expect(hasStack(bad.stderr + missing.stderr)).toBe(false);
  });

  it('reads every trace of several processes that wrote large spans to one file at once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-trace-'));
    const file = join(dir, 'spans.jsonl');
    const rounds = 4;
    const perRound = 100;
    // Started together, once all four have had time to load.
    const startAt = Date.now() + 5_000;
    const writers = Array.from({ length: 4 }, (_, index) =>
      spawnGroup({
        args: [writer, file, String(rounds), String(perRound), String(startAt)],
        env: { PATH: process.env.PATH ?? '' },
        name: `span writer ${index}`,
      }),
    );
    const ended = await Promise.all(writers.map((child) => child.waitForExit({ timeoutMs: 60_000 })));
    expect(ended, writers.map((child) => child.output()).join('\n')).toEqual([0, 0, 0, 0]);
    for (const child of writers) {
      const traceId = child.stdout().trim();
      const shown = await switchboard(['trace', traceId, '--file', file]);
      expect(shown.stderr).toBe('');
      expect(shown.code).toBe(0);
      expect(shown.stdout).toContain(`Trace ${traceId}: ${rounds * perRound + 1} spans across 1 services`);
    }
  }, 120_000);

  it('skips a damaged line, says how many it skipped, and still draws the trace', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-trace-'));
    const file = join(dir, 'spans.jsonl');
    const lines = [
      JSON.stringify(span('1'.repeat(16), undefined, 'invoke_agent supervisor', 'supervisor', 1)),
      // Half a span, the rest of another: what two writers that interleave leave behind.
      `${JSON.stringify(span('4'.repeat(16), '1'.repeat(16), 'chat', 'supervisor', 2)).slice(0, 40)}{"traceId":"${trace}",`,
      JSON.stringify({ traceId: 'nope' }),
      JSON.stringify(span('2'.repeat(16), '1'.repeat(16), 'process a2a.orders', 'orders', 3)),
    ];
    await writeFile(file, `${lines.join('\n')}\n`);
    const { code, stdout, stderr } = await switchboard(['trace', 'last', '--file', file]);
    expect(code).toBe(0);
    expect(stdout).toContain(`Trace ${trace}: 2 spans across 2 services (supervisor, orders)`);
    expect(stdout).toMatch(/└─ process a2a\.orders\s+orders/);
    expect(stderr).toContain(
      `Skipped 2 damaged lines of ${file} (lines 2, 3); the trace may miss their spans.`,
    );
  });

  it('prints the request’s cost per agent and in total, from its root SERVER span', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-trace-'));
    const file = join(dir, 'spans.jsonl');
    const entry = (agent: string, n: number) =>
      JSON.stringify({
        agent,
        tokensIn: 10 * n,
        tokensOut: n,
        modelMs: 5 * n,
        toolMs: 2 * n,
        queueWaitMs: n,
        hops: 1,
      });
    const costed = (agents: string[]) => ({
      kind: 'server',
      attributes: { 'switchboard.cost.agents': agents, 'switchboard.cost.hops': agents.length },
    });
    const spans = [
      span(
        '1'.repeat(16),
        undefined,
        'SendStreamingMessage',
        'supervisor',
        1,
        costed([entry('supervisor', 1), entry('orders\u001b[2J', 2), '{"agent":"liar","tokensIn":-4}']),
      ),
      span('2'.repeat(16), '1'.repeat(16), 'process a2a.orders', 'orders', 2),
      // A hop's own SERVER span holds its subtree only: the root's table is the one printed.
      span('3'.repeat(16), '2'.repeat(16), 'SendMessage', 'orders', 3, costed([entry('orders', 9)])),
    ];
    await writeFile(file, `${spans.map((item) => JSON.stringify(item)).join('\n')}\n`);
    const { code, stdout } = await switchboard(['trace', 'last', '--file', file]);
    expect(code).toBe(0);
    const table = stdout.slice(stdout.indexOf('Cost of the request')).trim().split('\n');
    expect(table).toEqual([
      'Cost of the request (supervisor, SendStreamingMessage):',
      expect.stringMatching(/^agent\s+tokens in\s+tokens out\s+model ms\s+tool ms\s+queue ms\s+hops$/),
      expect.stringMatching(/^supervisor\s+10\s+1\s+5\s+2\s+1\s+1$/),
      expect.stringMatching(/^orders\\x1b\[2J\s+20\s+2\s+10\s+4\s+2\s+1$/),
      expect.stringMatching(/^total\s+30\s+3\s+15\s+6\s+3\s+2$/),
      '(1 per-agent entry of the span did not parse, left out)',
    ]);
  });
});
