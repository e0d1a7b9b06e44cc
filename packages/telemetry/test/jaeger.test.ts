import { afterEach, describe, expect, it } from 'vitest';
import {
  buildTraceTree,
  fetchJaegerTrace,
  isTelemetryError,
  renderTraceTree,
  type SpanRecord,
} from '../src/index.ts';
import { toJaegerLegacy, toJaegerV3 } from './support/jaeger-payloads.ts';
import { type Loopback, sendJson, startLoopback } from './support/loopback.ts';
import { SAMPLE_TRACE_ID, sampleTrace } from './support/sample-trace.ts';

/** A fake Jaeger query service that serves the given spans as one trace, on the given APIs only. */
function fakeJaeger(
  apis: { v3?: readonly SpanRecord[]; legacy?: readonly SpanRecord[] },
  requested: string[],
): Promise<Loopback> {
  return startLoopback((request, response) => {
    const path = request.url ?? '';
    requested.push(path);
    if (apis.v3 && path === `/api/v3/traces/${SAMPLE_TRACE_ID}`) sendJson(response, 200, toJaegerV3(apis.v3));
    else if (apis.legacy && path === `/api/traces/${SAMPLE_TRACE_ID}`)
      sendJson(response, 200, toJaegerLegacy(apis.legacy));
    else if (path.startsWith('/api/v3/'))
      sendJson(response, 404, { error: { httpCode: 404, message: 'No traces found' } });
    else sendJson(response, 404, { data: null, errors: [{ code: 404, msg: 'trace not found' }] });
  });
}

const byId = (a: { spanId: string }, b: { spanId: string }) => a.spanId.localeCompare(b.spanId);
let servers: Loopback[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

describe('fetchJaegerTrace', () => {
  it('reads /api/v3 (OTLP JSON) and /api/traces (Jaeger JSON) into the same spans and tree', async () => {
    const v3Requests: string[] = [];
    const legacyRequests: string[] = [];
    const v3 = await fakeJaeger({ v3: sampleTrace }, v3Requests);
    const legacy = await fakeJaeger({ legacy: sampleTrace }, legacyRequests);
    servers.push(v3, legacy);

    const fromV3 = await fetchJaegerTrace({ baseUrl: v3.url, traceId: SAMPLE_TRACE_ID });
    const fromLegacy = await fetchJaegerTrace({ baseUrl: `${legacy.url}/`, traceId: SAMPLE_TRACE_ID });

    expect(v3Requests).toEqual([`/api/v3/traces/${SAMPLE_TRACE_ID}`]);
    expect(legacyRequests).toEqual([`/api/v3/traces/${SAMPLE_TRACE_ID}`, `/api/traces/${SAMPLE_TRACE_ID}`]);
    expect([...fromV3].sort(byId)).toEqual([...sampleTrace].sort(byId));
    expect([...fromLegacy].sort(byId)).toEqual([...sampleTrace].sort(byId));
    const render = (spans: typeof sampleTrace) => renderTraceTree(buildTraceTree(spans));
    expect(render(fromLegacy)).toEqual(render(fromV3));
    expect(render(fromV3)).toEqual(render(sampleTrace));
  });

  it('reads a v3 answer whose spans omit their zero times, without falling back, and shows them untimed', async () => {
    // The OTLP JSON mapping leaves out fields that are zero: a span may come with no times at all.
    const untimed = sampleTrace.map((span) =>
      span.name === 'send a2a.orders' ? { ...span, startMs: 0, endMs: 0, durationMs: 0 } : span,
    );
    const requests: string[] = [];
    const jaeger = await fakeJaeger({ v3: untimed, legacy: sampleTrace }, requests);
    servers.push(jaeger);

    const spans = await fetchJaegerTrace({ baseUrl: jaeger.url, traceId: SAMPLE_TRACE_ID });

    expect(requests).toEqual([`/api/v3/traces/${SAMPLE_TRACE_ID}`]);
    expect([...spans].sort(byId)).toEqual([...untimed].sort(byId));
    const lines = renderTraceTree(buildTraceTree(spans));
    const send = lines.findIndex((line) => line.includes('send a2a.orders'));
    expect(lines[send]).toMatch(/send a2a\.orders\s+supervisor\s+\? ms\s+ok\s+message=job-7$/);
    expect(lines[send + 1]).toMatch(/└─ process a2a\.orders\s+orders\s+152 ms/);
  });

  it('shows Jaeger’s warnings as warnings, not as an attribute, from either API', async () => {
    const warning = 'clock skew adjustment disabled; not applying calculated delta of 1.5ms';
    const warned = sampleTrace.map((span) =>
      span.name === 'process a2a.orders' ? { ...span, warnings: [warning] } : span,
    );
    const v3 = await fakeJaeger({ v3: warned }, []);
    const legacy = await fakeJaeger({ legacy: warned }, []);
    servers.push(v3, legacy);

    const fromV3 = await fetchJaegerTrace({ baseUrl: v3.url, traceId: SAMPLE_TRACE_ID });
    const fromLegacy = await fetchJaegerTrace({ baseUrl: legacy.url, traceId: SAMPLE_TRACE_ID });

    expect([...fromV3].sort(byId)).toEqual([...warned].sort(byId));
    expect([...fromLegacy].sort(byId)).toEqual([...warned].sort(byId));
    for (const spans of [fromV3, fromLegacy]) {
      const line = renderTraceTree(buildTraceTree(spans)).find((text) => text.includes('process a2a.orders'));
      expect(line).toMatch(new RegExp(`ok\\s+message=job-7 warning="${warning}"$`));
    }
  });

  it('says when Jaeger has no such trace, and when it cannot be reached', async () => {
    const empty = await fakeJaeger({}, []);
    servers.push(empty);
    const missing = await fetchJaegerTrace({ baseUrl: empty.url, traceId: 'c'.repeat(32) }).catch((e) => e);
    expect(isTelemetryError(missing, 'TRACE_NOT_FOUND')).toBe(true);
    const unreachable = await fetchJaegerTrace({
      baseUrl: 'http://127.0.0.1:9',
      traceId: SAMPLE_TRACE_ID,
    }).catch((e) => e);
    expect(isTelemetryError(unreachable, 'JAEGER_UNREACHABLE')).toBe(true);
    await expect(fetchJaegerTrace({ baseUrl: empty.url, traceId: 'not-a-trace' })).rejects.toThrow(
      /not a trace id/,
    );
  });
});
