import { describe, expect, it } from 'vitest';
import { buildTraceTree, lastTraceId, renderTraceTree, type SpanRecord } from '../src/index.ts';
import { SAMPLE_TRACE_ID, sampleTrace } from './support/sample-trace.ts';

const EXPECTED = [
  'POST /a2a                                          supervisor  250 ms  ok',
  '└─ invoke_agent supervisor                         supervisor  246 ms  ok',
  '   ├─ chat gpt-4.1-mini                            supervisor   37 ms  ok     tokens.in=120 tokens.out=30 finish=tool_calls',
  '   ├─ execute_tool ask_orders                      supervisor  159 ms  ok     call=call_1',
  '   │  └─ SendMessage                               supervisor  157 ms  ok     task=task-1 state=TASK_STATE_COMPLETED',
  '   │     └─ send a2a.orders                        supervisor  2.3 ms  ok     message=job-7',
  '   │        └─ process a2a.orders                  orders      152 ms  ok     message=job-7',
  '   │           └─ SendMessage                      orders      150 ms  ok     task=task-1',
  '   │              └─ invoke_agent orders           orders      148 ms  ok',
  '   │                 ├─ execute_tool track_parcel  orders      2.5 ms  ERROR  "Parcel tracking is down right now." error=TOOL_FAILED call=call_2',
  '   │                 └─ chat gpt-4.1-mini          orders      127 ms  ok     tokens.in=80 tokens.out=25 finish=stop',
  '   └─ chat gpt-4.1-mini                            supervisor   46 ms  ok     tokens.in=300 tokens.out=12 finish=stop',
];

describe('buildTraceTree and renderTraceTree', () => {
  it('renders a multi-service trace as an indented tree, whatever the order of the spans', () => {
    const shuffled = [...sampleTrace].reverse();
    expect(renderTraceTree(buildTraceTree(shuffled))).toEqual(EXPECTED);
    expect(renderTraceTree(buildTraceTree(sampleTrace))).toEqual(EXPECTED);
  });

  it('cuts lines to the given width', () => {
    const lines = renderTraceTree(buildTraceTree(sampleTrace), { width: 60 });
    expect(lines[0]).toBe(EXPECTED[0]?.slice(0, 59).concat('…'));
    expect(lines.every((line) => line.length <= 60)).toBe(true);
  });

  it('puts a span without times after its timed siblings, without a duration', () => {
    const untimed = sampleTrace.map((span) =>
      span.spanId.endsWith('a3') ? { ...span, startMs: 0, endMs: 0, durationMs: 0 } : span,
    );
    const [root] = buildTraceTree(untimed).roots;
    const invoke = root?.children[0];
    expect(invoke?.children.map((child) => `${child.span.name} ${child.span.startMs > 0}`)).toEqual([
      'execute_tool ask_orders true',
      'chat gpt-4.1-mini true',
      'chat gpt-4.1-mini false',
    ]);
    expect(renderTraceTree(buildTraceTree(untimed))).toContain(
      '   └─ chat gpt-4.1-mini                            supervisor    ? ms  ok     tokens.in=120 tokens.out=30 finish=tool_calls',
    );
  });

  it('makes a span whose parent is missing a root', () => {
    const orphan = sampleTrace.filter((span) => span.name !== 'send a2a.orders');
    const { roots } = buildTraceTree(orphan);
    expect(roots.map((root) => root.span.name)).toEqual(['POST /a2a', 'process a2a.orders']);
  });
});

describe('lastTraceId', () => {
  it('picks the trace whose root started last', () => {
    const later: SpanRecord[] = sampleTrace.slice(0, 2).map((span) => ({
      ...span,
      traceId: 'f'.repeat(32),
      startMs: span.startMs + 10_000,
      endMs: span.endMs + 10_000,
    }));
    expect(lastTraceId(sampleTrace)).toBe(SAMPLE_TRACE_ID);
    expect(lastTraceId([...later, ...sampleTrace])).toBe('f'.repeat(32));
    expect(lastTraceId([])).toBeUndefined();
  });
});
