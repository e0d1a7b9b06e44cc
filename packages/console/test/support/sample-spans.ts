// One request's spans across the supervisor and the orders worker, a tool of which failed with hostile text.
import type { SpanRecord } from '@switchboard/telemetry/trace';
import { HOSTILE_TEXT } from './signed-in.ts';

export const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
export const TASK = 'task-7';
const T0 = 1_767_225_600_000;

export function span(
  id: number,
  parent: number | undefined,
  name: string,
  service: string,
  [from, to]: [number, number],
  extra: Partial<SpanRecord> = {},
): SpanRecord {
  const hex = (n: number) => n.toString(16).padStart(16, '0');
  return {
    traceId: TRACE,
    spanId: hex(id),
    ...(parent === undefined ? {} : { parentSpanId: hex(parent) }),
    name,
    kind: 'internal',
    service,
    startMs: T0 + from,
    endMs: T0 + to,
    durationMs: to - from,
    status: { code: 'unset' },
    attributes: {},
    ...extra,
  };
}

/** One request through the supervisor and the orders worker, a tool of which failed with hostile text. */
export const SPANS: SpanRecord[] = [
  span(1, undefined, 'SendMessage', 'supervisor', [0, 250], {
    kind: 'server',
    attributes: { 'a2a.task.id': TASK },
  }),
  span(2, 1, 'invoke_agent supervisor', 'supervisor', [2, 248]),
  span(3, 2, 'send a2a.orders', 'supervisor', [40, 44], { kind: 'producer' }),
  span(4, 3, 'process a2a.orders', 'orders', [46, 198], { kind: 'consumer' }),
  span(5, 4, `execute_tool ${HOSTILE_TEXT}`, 'orders', [60, 62.5], {
    status: { code: 'error', message: HOSTILE_TEXT },
    attributes: {
      'error.type': 'TOOL_FAILED',
      'gen_ai.tool.call.arguments': HOSTILE_TEXT,
      // A secret a tool wrote where it should not have: the page shows it redacted.
      'http.request.body': 'Authorization: Bearer sk-live-0123456789abcdefghij',
    },
  }),
];
