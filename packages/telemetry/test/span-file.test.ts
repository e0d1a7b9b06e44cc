import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTelemetryError, readSpanFile, SpanFileExporter } from '../src/index.ts';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchboard-spans-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('SpanFileExporter and readSpanFile', () => {
  it('appends one JSON line per span, creating the directory, and reads them back', async () => {
    const path = join(dir, 'nested', 'spans.jsonl');
    const provider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'orders' }),
      spanProcessors: [new SimpleSpanProcessor({ exporter: new SpanFileExporter({ path }) })],
    });
    const tracer = provider.getTracer('test');
    const before = Date.now();
    const parent = tracer.startSpan('invoke_agent orders', { attributes: { 'gen_ai.agent.name': 'orders' } });
    const child = tracer.startSpan(
      'chat gpt-test',
      {
        kind: SpanKind.CLIENT,
        attributes: { 'gen_ai.usage.input_tokens': 120, 'gen_ai.response.finish_reasons': ['stop'] },
      },
      trace.setSpan(context.active(), parent),
    );
    child.setStatus({ code: SpanStatusCode.ERROR, message: 'model call failed (MODEL_UNAVAILABLE)' });
    child.setAttribute('error.type', 'MODEL_UNAVAILABLE');
    child.end();
    parent.end();
    await provider.forceFlush();
    tracer.startSpan('later').end();
    await provider.shutdown();

    expect((await readFile(path, 'utf8')).trimEnd().split('\n')).toHaveLength(3);
    const [chat, invoke, later] = await readSpanFile(path);
    expect(invoke).toMatchObject({
      traceId: parent.spanContext().traceId,
      spanId: parent.spanContext().spanId,
      name: 'invoke_agent orders',
      kind: 'internal',
      service: 'orders',
      status: { code: 'unset' },
      attributes: { 'gen_ai.agent.name': 'orders' },
    });
    expect(invoke?.parentSpanId).toBeUndefined();
    expect(chat).toMatchObject({
      traceId: parent.spanContext().traceId,
      parentSpanId: parent.spanContext().spanId,
      name: 'chat gpt-test',
      kind: 'client',
      status: { code: 'error', message: 'model call failed (MODEL_UNAVAILABLE)' },
      attributes: {
        'gen_ai.usage.input_tokens': 120,
        'gen_ai.response.finish_reasons': ['stop'],
        'error.type': 'MODEL_UNAVAILABLE',
      },
    });
    expect(later?.name).toBe('later');
    for (const record of [chat, invoke]) {
      expect(record?.startMs).toBeGreaterThanOrEqual(before - 1);
      expect(record?.endMs).toBeGreaterThanOrEqual(record?.startMs ?? Number.POSITIVE_INFINITY);
      expect(record?.durationMs).toBeCloseTo((record?.endMs ?? 0) - (record?.startMs ?? 0), 2);
    }
  });

  it('names the line that is not a span, and says when the file is missing', async () => {
    const path = join(dir, 'spans.jsonl');
    const good = JSON.stringify({
      traceId: 'a'.repeat(32),
      spanId: 'b'.repeat(16),
      name: 'x',
      kind: 'internal',
      service: 's',
      startMs: 1,
      endMs: 2,
      durationMs: 1,
      status: { code: 'ok' },
      attributes: {},
    });
    await writeFile(path, `${good}\n\n{"traceId":"nope"}\n`);
    const invalid = await readSpanFile(path).catch((error: unknown) => error);
    expect(isTelemetryError(invalid, 'SPAN_FILE_INVALID')).toBe(true);
    expect(String(invalid)).toMatch(/Line 3 of .*spans\.jsonl is not a span record/);
    const missing = await readSpanFile(join(dir, 'none.jsonl')).catch((error: unknown) => error);
    expect(isTelemetryError(missing, 'SPAN_FILE_NOT_FOUND')).toBe(true);
  });
});
