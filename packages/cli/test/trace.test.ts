import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasStack, switchboard } from './support.ts';

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
});
