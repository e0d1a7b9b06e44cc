import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { context } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OtlpTraceData, otlpToSpanRecords, readSpanFile, startTelemetry } from '../src/index.ts';
import { type Loopback, sendJson, startLoopback } from './support/loopback.ts';
import { startOtlpReceiver } from './support/otlp-receiver.ts';

const identity = {
  serviceName: 'orders',
  serviceVersion: '1.2.3',
  environment: 'test',
  instanceId: 'orders-0',
};
const invokeSpec = { operation: 'invoke_agent' as const, name: 'invoke_agent orders', attributes: {} };

let dir = '';
let servers: Loopback[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchboard-telemetry-'));
});
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
  await rm(dir, { recursive: true, force: true });
});

describe('startTelemetry', () => {
  it('exports to an OTLP/HTTP endpoint with the resource attributes, flushed by shutdown', async () => {
    const receiver = await startOtlpReceiver();
    servers.push(receiver);
    const telemetry = await startTelemetry({
      ...identity,
      otlpEndpoint: `${receiver.url}/`,
      instrumentHttp: false,
      jaegerUiUrl: 'http://localhost:16686/',
    });
    expect(telemetry.spanFile).toBeUndefined();
    await telemetry.tracer.inSpan(invokeSpec, async (span) =>
      span.setAttributes({ 'gen_ai.agent.name': 'orders' }),
    );
    await telemetry.shutdown();
    await telemetry.shutdown();

    expect(receiver.bodies).toHaveLength(1);
    const data = OtlpTraceData.parse(receiver.bodies[0]);
    const resource = Object.fromEntries(
      (data.resourceSpans?.[0]?.resource?.attributes ?? []).map(({ key, value }) => [
        key,
        value?.stringValue,
      ]),
    );
    expect(resource).toMatchObject({
      'service.name': 'orders',
      'service.version': '1.2.3',
      'service.instance.id': 'orders-0',
      'deployment.environment.name': 'test',
    });
    const [span, ...rest] = otlpToSpanRecords(data);
    expect(rest).toEqual([]);
    expect(span).toMatchObject({
      name: 'invoke_agent orders',
      kind: 'internal',
      service: 'orders',
      attributes: { 'gen_ai.agent.name': 'orders' },
    });
    expect(telemetry.traceUrl(span?.traceId ?? '')).toBe(`http://localhost:16686/trace/${span?.traceId}`);
  });

  it('writes spans to the span file when no endpoint is given', async () => {
    const spanFile = join(dir, 'state', 'spans.jsonl');
    const telemetry = await startTelemetry({ ...identity, spanFile, instrumentHttp: false });
    expect(telemetry.spanFile).toBe(spanFile);
    expect(telemetry.traceUrl('a'.repeat(32))).toBeUndefined();
    await telemetry.tracer.inSpan(invokeSpec, async () => {});
    await telemetry.shutdown();
    const spans = await readSpanFile(spanFile);
    expect(spans.map((span) => [span.name, span.service])).toEqual([['invoke_agent orders', 'orders']]);
  });

  it('continues the caller’s traceparent in HTTP server spans and sends it on with fetch', async () => {
    const spanFile = join(dir, 'spans.jsonl');
    const telemetry = await startTelemetry({ ...identity, spanFile });
    const received: (string | undefined)[] = [];
    const downstream = await startLoopback((request, response) => {
      received.push(request.headers.traceparent as string | undefined);
      sendJson(response, 200, { ok: true });
    });
    const upstream = await startLoopback((_request, response) => {
      void telemetry.tracer.inSpan(invokeSpec, async () => {
        const answer = await fetch(`${downstream.url}/work?api_key=sk-canary-1234567890abcdef`);
        sendJson(response, 200, await answer.json());
      });
    });
    servers.push(downstream, upstream);
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const callerSpanId = 'b7ad6b7169203331';
    // The caller is outside this process: its request itself must not be traced here.
    const answer = await context.with(suppressTracing(context.active()), () =>
      fetch(`${upstream.url}/a2a`, { headers: { traceparent: `00-${traceId}-${callerSpanId}-01` } }),
    );
    expect(await answer.json()).toEqual({ ok: true });
    await telemetry.shutdown();

    const spans = await readSpanFile(spanFile);
    const [entry, downstreamServer] = spans
      .filter((span) => span.kind === 'server')
      .sort((a, b) => a.startMs - b.startMs);
    const invoke = spans.find((span) => span.name === 'invoke_agent orders');
    const client = spans.find((span) => span.kind === 'client');
    expect(spans.every((span) => span.traceId === traceId)).toBe(true);
    expect(entry?.parentSpanId).toBe(callerSpanId);
    expect(invoke?.parentSpanId).toBe(entry?.spanId);
    expect(client?.parentSpanId).toBe(invoke?.spanId);
    expect(downstreamServer?.parentSpanId).toBe(client?.spanId);
    expect(received).toEqual([`00-${traceId}-${client?.spanId}-01`]);
    expect(JSON.stringify(client?.attributes)).not.toContain('sk-canary');
  });

  it('refuses an attribute length it cannot use', async () => {
    await expect(startTelemetry({ ...identity, maxAttributeLength: 0 })).rejects.toThrow(
      'maxAttributeLength must be a whole number of characters, at least 32 (got 0).',
    );
  });
});
