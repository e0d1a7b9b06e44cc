import type { SpanKindName, SpanRecord } from '../../src/index.ts';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const T0 = 1_767_225_600_000; // 2026-01-01T00:00:00Z, in ms

function span(
  id: number,
  parent: number | undefined,
  name: string,
  kind: SpanKindName,
  service: string,
  [from, to]: [number, number],
  attributes: SpanRecord['attributes'] = {},
  error?: string,
): SpanRecord {
  const hex = (n: number) => n.toString(16).padStart(16, '0');
  return {
    traceId: TRACE,
    spanId: hex(0xa0 + id),
    ...(parent === undefined ? {} : { parentSpanId: hex(0xa0 + parent) }),
    name,
    kind,
    service,
    startMs: T0 + from,
    endMs: T0 + to,
    durationMs: to - from,
    status: error ? { code: 'error', message: error } : { code: 'unset' },
    attributes,
  };
}

const chat = (input: number, output: number, finish: string) => ({
  'gen_ai.operation.name': 'chat',
  'gen_ai.request.model': 'gpt-4.1-mini',
  'gen_ai.usage.input_tokens': input,
  'gen_ai.usage.output_tokens': output,
  'gen_ai.response.finish_reasons': [finish],
});

/** One request through a supervisor and an orders worker, over A2A on a BullMQ queue. */
export const SAMPLE_TRACE_ID = TRACE;
export const sampleTrace: SpanRecord[] = [
  span(1, undefined, 'POST /a2a', 'server', 'supervisor', [0, 250], { 'http.response.status_code': 200 }),
  span(2, 1, 'invoke_agent supervisor', 'internal', 'supervisor', [2, 248], {
    'gen_ai.agent.name': 'supervisor',
  }),
  span(3, 2, 'chat gpt-4.1-mini', 'client', 'supervisor', [3, 40], chat(120, 30, 'tool_calls')),
  span(4, 2, 'execute_tool ask_orders', 'internal', 'supervisor', [41, 200], {
    'gen_ai.tool.call.id': 'call_1',
  }),
  span(5, 4, 'SendMessage', 'client', 'supervisor', [42, 199], {
    'a2a.method.name': 'SendMessage',
    'a2a.task.id': 'task-1',
    'a2a.task.state': 'TASK_STATE_COMPLETED',
  }),
  span(6, 5, 'send a2a.orders', 'producer', 'supervisor', [42.5, 44.75], {
    'messaging.system': 'bullmq',
    'messaging.message.id': 'job-7',
  }),
  span(7, 6, 'process a2a.orders', 'consumer', 'orders', [46, 198], { 'messaging.message.id': 'job-7' }),
  span(8, 7, 'SendMessage', 'server', 'orders', [47, 197], { 'a2a.task.id': 'task-1' }),
  span(9, 8, 'invoke_agent orders', 'internal', 'orders', [48, 196]),
  span(
    10,
    9,
    'execute_tool track_parcel',
    'internal',
    'orders',
    [60, 62.5],
    { 'gen_ai.tool.call.id': 'call_2', 'error.type': 'TOOL_FAILED' },
    'Parcel tracking is down right now.',
  ),
  span(11, 9, 'chat gpt-4.1-mini', 'client', 'orders', [63, 190], chat(80, 25, 'stop')),
  span(12, 2, 'chat gpt-4.1-mini', 'client', 'supervisor', [201, 247], chat(300, 12, 'stop')),
];
