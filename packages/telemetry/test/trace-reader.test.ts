import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  isTelemetryError,
  jaegerTraceUrl,
  readTrace,
  readTracesOfTask,
  type SpanRecord,
  traceIdsOfTask,
} from '../src/trace.ts';
import { toJaegerLegacy } from './support/jaeger-payloads.ts';
import { type Loopback, sendJson, startLoopback } from './support/loopback.ts';
import { SAMPLE_TRACE_ID, sampleTrace } from './support/sample-trace.ts';

const OTHER_TRACE = 'b'.repeat(32);
/** The same request resumed later (after an approval) in a trace of its own. */
const resumed: SpanRecord[] = sampleTrace.map((span) => ({
  ...span,
  traceId: OTHER_TRACE,
  startMs: span.startMs + 60_000,
  endMs: span.endMs + 60_000,
}));

let dir = '';
let servers: Loopback[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchboard-trace-reader-'));
});
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
  await rm(dir, { recursive: true, force: true });
});

async function spanFile(spans: readonly SpanRecord[], extra = ''): Promise<string> {
  const path = join(dir, 'spans.jsonl');
  await writeFile(path, `${[...spans.map((span) => JSON.stringify(span)), extra].join('\n')}\n`);
  return path;
}

describe('readTrace', () => {
  it('reads one trace of the span file, or its last one, and lists the damaged lines it skipped', async () => {
    const path = await spanFile([...resumed, ...sampleTrace], '{"traceId":');
    const one = await readTrace({ traceId: SAMPLE_TRACE_ID.toUpperCase(), spanFile: path });
    expect(one.traceId).toBe(SAMPLE_TRACE_ID);
    expect(one.spans).toEqual(sampleTrace);
    expect(one.skipped).toEqual([{ line: 25, reason: 'not JSON' }]);
    const last = await readTrace({ traceId: 'last', spanFile: path });
    expect(last.traceId).toBe(OTHER_TRACE);
    expect(last.spans).toHaveLength(sampleTrace.length);
  });

  it('reads a trace from Jaeger when given its URL, and refuses what it cannot read', async () => {
    const jaeger = await startLoopback((request, response) => {
      if (request.url === `/api/traces/${SAMPLE_TRACE_ID}`)
        sendJson(response, 200, toJaegerLegacy(sampleTrace));
      else sendJson(response, 404, {});
    });
    servers.push(jaeger);
    const read = await readTrace({ traceId: SAMPLE_TRACE_ID, jaegerUrl: jaeger.url, spanFile: '/nowhere' });
    expect(read.source).toBe(jaeger.url);
    expect(read.spans).toHaveLength(sampleTrace.length);
    for (const options of [
      { traceId: 'last', jaegerUrl: jaeger.url },
      { traceId: 'nope', spanFile: '/nowhere' },
      { traceId: SAMPLE_TRACE_ID },
    ]) {
      const error = await readTrace(options).catch((caught: unknown) => caught);
      expect(isTelemetryError(error, 'INVALID_OPTIONS')).toBe(true);
    }
  });
});

describe('traceIdsOfTask', () => {
  it('finds every trace of a task in the span file, oldest first', async () => {
    const path = await spanFile([...resumed, ...sampleTrace]);
    expect(await traceIdsOfTask({ taskId: 'task-1', spanFile: path })).toEqual([
      SAMPLE_TRACE_ID,
      OTHER_TRACE,
    ]);
    expect(await traceIdsOfTask({ taskId: 'task-2', spanFile: path })).toEqual([]);
    const [first, second] = await readTracesOfTask({ taskId: 'task-1', spanFile: path });
    expect(first?.spans).toEqual(sampleTrace);
    expect(second?.spans).toEqual(resumed);
    expect(
      (await readTracesOfTask({ taskId: 'task-1', spanFile: path, limit: 1 })).map((t) => t.traceId),
    ).toEqual([OTHER_TRACE]);
  });

  it('searches Jaeger by the service and the task id attribute', async () => {
    const asked: URL[] = [];
    const jaeger = await startLoopback((request, response) => {
      const url = new URL(request.url ?? '/', 'http://jaeger');
      asked.push(url);
      const tags = JSON.parse(url.searchParams.get('tags') ?? '{}') as Record<string, string>;
      const found = tags['a2a.task.id'] === 'task-1' && url.searchParams.get('service') === 'supervisor';
      sendJson(response, 200, found ? toJaegerLegacy([...sampleTrace, ...resumed]) : { data: [] });
    });
    servers.push(jaeger);
    expect(await traceIdsOfTask({ taskId: 'task-1', jaegerUrl: jaeger.url, service: 'supervisor' })).toEqual([
      SAMPLE_TRACE_ID,
      OTHER_TRACE,
    ]);
    expect(asked[0]?.pathname).toBe('/api/traces');
    expect(Number(asked[0]?.searchParams.get('end'))).toBeGreaterThan(
      Number(asked[0]?.searchParams.get('start')),
    );
    expect(await traceIdsOfTask({ taskId: 'task-9', jaegerUrl: jaeger.url, service: 'supervisor' })).toEqual(
      [],
    );
    const error = await traceIdsOfTask({ taskId: 'task-1', jaegerUrl: jaeger.url }).catch(
      (caught: unknown) => caught,
    );
    expect(isTelemetryError(error, 'INVALID_OPTIONS')).toBe(true);
  });

  it('links a trace in Jaeger’s UI', () => {
    expect(jaegerTraceUrl({ jaegerUrl: 'http://localhost:16686/', traceId: SAMPLE_TRACE_ID })).toBe(
      `http://localhost:16686/trace/${SAMPLE_TRACE_ID}`,
    );
  });
});
