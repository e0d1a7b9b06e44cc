import { afterEach, describe, expect, it } from 'vitest';
import { buildTraceTree, fetchJaegerTrace, isTelemetryError, renderTraceTree } from '../src/index.ts';
import { toJaegerLegacy, toJaegerV3 } from './support/jaeger-payloads.ts';
import { type Loopback, sendJson, startLoopback } from './support/loopback.ts';
import { SAMPLE_TRACE_ID, sampleTrace } from './support/sample-trace.ts';

/** A fake Jaeger query service that serves the sample trace on the given APIs only. */
function fakeJaeger(apis: { v3: boolean; legacy: boolean }, requested: string[]): Promise<Loopback> {
  return startLoopback((request, response) => {
    const path = request.url ?? '';
    requested.push(path);
    if (apis.v3 && path === `/api/v3/traces/${SAMPLE_TRACE_ID}`)
      sendJson(response, 200, toJaegerV3(sampleTrace));
    else if (apis.legacy && path === `/api/traces/${SAMPLE_TRACE_ID}`)
      sendJson(response, 200, toJaegerLegacy(sampleTrace));
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
    const v3 = await fakeJaeger({ v3: true, legacy: false }, v3Requests);
    const legacy = await fakeJaeger({ v3: false, legacy: true }, legacyRequests);
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

  it('says when Jaeger has no such trace, and when it cannot be reached', async () => {
    const empty = await fakeJaeger({ v3: false, legacy: false }, []);
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
