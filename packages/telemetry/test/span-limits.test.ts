import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { context } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSpanFile, startTelemetry } from '../src/index.ts';
import { type Loopback, sendJson, startLoopback } from './support/loopback.ts';

// A file of its own: the HTTP instrumentation patches `node:http` once per process.
const identity = {
  serviceName: 'orders',
  serviceVersion: '1.2.3',
  environment: 'test',
  instanceId: 'orders-0',
};
const invokeSpec = { operation: 'invoke_agent' as const, name: 'invoke_agent orders', attributes: {} };

let dir = '';
const servers: Loopback[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchboard-span-limits-'));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await rm(dir, { recursive: true, force: true });
});

describe('span limits', () => {
  it('cuts every span attribute to 1024 characters, so a long request does not make a long span', async () => {
    const spanFile = join(dir, 'spans.jsonl');
    const telemetry = await startTelemetry({ ...identity, spanFile });
    const server = await startLoopback((_request, response) => sendJson(response, 200, { ok: true }));
    servers.push(server);
    const longPath = `/a2a/rest/tasks/${'t'.repeat(10_000)}`;
    await context.with(suppressTracing(context.active()), () => fetch(`${server.url}${longPath}`));
    await telemetry.tracer.inSpan(invokeSpec, async (span) =>
      span.setAttributes({ 'a2a.task.id': 'x'.repeat(50_000) }),
    );
    await telemetry.shutdown();

    const spans = await readSpanFile(spanFile);
    const values = spans.flatMap((span) => Object.values(span.attributes ?? {}).map(String));
    expect(values.some((value) => value.startsWith('/a2a/rest/tasks/ttt'))).toBe(true);
    expect(Math.max(...values.map((value) => value.length))).toBe(1024);
  });
});
