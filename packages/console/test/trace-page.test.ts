import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SpanRecord } from '@switchboard/telemetry/trace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spanTraceView } from '../src/index.ts';
import { startConsoleHost } from './support/console-host.ts';
import { SPANS, span, TASK, TRACE } from './support/sample-spans.ts';
import { getPage, HOSTILE_SHOWN, inertProblems, operatorCookie } from './support/signed-in.ts';

let dir = '';
let running: Awaited<ReturnType<typeof startConsoleHost>> | undefined;
let jaeger: Server | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'console-trace-'));
});
afterEach(async () => {
  await running?.close();
  running = undefined;
  jaeger?.closeAllConnections();
  await new Promise((resolve) => (jaeger ? jaeger.close(resolve) : resolve(undefined)));
  jaeger = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** A loopback server answering as Jaeger's query API does (its own JSON, times in µs). */
async function fakeJaeger(spans: readonly SpanRecord[]): Promise<{ url: string; asked: string[] }> {
  const asked: string[] = [];
  const services = [...new Set(spans.map((s) => s.service))];
  const body = {
    data: [
      {
        traceID: TRACE,
        spans: spans.map((s) => ({
          traceID: s.traceId,
          spanID: s.spanId,
          operationName: s.name,
          references: s.parentSpanId
            ? [{ refType: 'CHILD_OF', traceID: s.traceId, spanID: s.parentSpanId }]
            : [],
          startTime: Math.round(s.startMs * 1000),
          duration: Math.round(s.durationMs * 1000),
          tags: [
            ...Object.entries(s.attributes).map(([key, value]) => ({ key, type: 'string', value })),
            ...(s.status.code === 'error'
              ? [
                  { key: 'otel.status_code', type: 'string', value: 'ERROR' },
                  { key: 'otel.status_description', type: 'string', value: s.status.message },
                ]
              : []),
          ],
          processID: `p${services.indexOf(s.service)}`,
        })),
        processes: Object.fromEntries(services.map((service, i) => [`p${i}`, { serviceName: service }])),
      },
    ],
  };
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://jaeger');
    asked.push(url.pathname);
    const tags = JSON.parse(url.searchParams.get('tags') ?? '{}') as Record<string, string>;
    const found =
      (url.pathname === '/api/traces' &&
        tags['a2a.task.id'] === TASK &&
        url.searchParams.get('service') === 'mailer') ||
      url.pathname === `/api/traces/${TRACE}`;
    response
      .writeHead(found ? 200 : 404, { 'content-type': 'application/json' })
      .end(JSON.stringify(found ? body : { data: null }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  jaeger = server;
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked };
}

function expectWaterfall(page: string) {
  expect(page).toContain('<svg class="waterfall"');
  expect(page).toContain('Waterfall of 5 spans across 2 services');
  expect(page.match(/<rect class="bar /g)).toHaveLength(5);
  expect(page).toContain('<rect class="bar svc-1 failed"');
  expect(page).toContain('5 spans across 2 services (supervisor, orders), <b>1 failed</b>');
  expect(page).toMatch(/<title>orders · process a2a\.orders · 152 ms · ok<\/title>/);
  expect(page).toContain(`<code>${TRACE}</code>`);
  expect(page).toContain(HOSTILE_SHOWN);
  expect(inertProblems(page)).toEqual([]);
  expect(page).not.toContain('sk-live-0123456789abcdefghij');
  expect(page).toContain('Authorization: Bearer [REDACTED]');
  // The page's scripts: none (the waterfall is plain SVG).
  expect(page).not.toContain('<script');
}

describe('a request’s trace page', () => {
  it('draws the request’s spans from the span file as a waterfall across services, every text inert', async () => {
    const spanFile = join(dir, 'spans.jsonl');
    const other = span(9, undefined, 'SendMessage', 'supervisor', [500, 600], { traceId: 'c'.repeat(32) });
    await writeFile(spanFile, `${[...SPANS, other].map((s) => JSON.stringify(s)).join('\n')}\n`);
    running = await startConsoleHost({
      email: { to: 'a@example.com', subject: 's', body: 'b' },
      pages: { trace: spanTraceView({ spanFile, service: 'mailer' }) },
    });
    const url = `${running.consoleUrl}/requests/${TASK}/trace`;
    const anonymous = await getPage(url);
    expect(anonymous.status).toBe(303);
    expect(anonymous.location).toBe('/console/sign-in');

    const cookie = await operatorCookie(running.consoleUrl);
    const { status, text } = await getPage(url, cookie);
    expect(status).toBe(200);
    expectWaterfall(text);
    expect(text).toContain(`Read from ${spanFile}.`);
    expect(text).not.toContain('c'.repeat(32));
    expect(text).not.toContain('Open in Jaeger');

    // One trace by its id (the shadow page links there), and an id that is none.
    const byId = await getPage(`${running.consoleUrl}/traces/${TRACE.toUpperCase()}`, cookie);
    expect(byId.status).toBe(200);
    expectWaterfall(byId.text);
    expect(byId.text).not.toContain('Back to the request');
    expect((await getPage(`${running.consoleUrl}/traces/${'e'.repeat(32)}`, cookie)).text).toContain(
      `holds trace ${'e'.repeat(32)} yet`,
    );
    expect((await getPage(`${running.consoleUrl}/traces/not-a-trace`, cookie)).status).toBe(404);
    expect((await getPage(`${running.consoleUrl}/traces/${TRACE}`)).status).toBe(303);

    const none = await getPage(`${running.consoleUrl}/requests/task-none/trace`, cookie);
    expect(none.text).toContain('No trace in');
    expect(none.text).toContain('names task task-none yet');
  });

  it('reads the spans from Jaeger’s query API when given it, and links the trace in Jaeger', async () => {
    const { url: jaegerUrl, asked } = await fakeJaeger(SPANS);
    running = await startConsoleHost({
      email: { to: 'a@example.com', subject: 's', body: 'b' },
      pages: { trace: spanTraceView({ jaegerUrl, service: 'mailer' }) },
    });
    const cookie = await operatorCookie(running.consoleUrl);
    const { status, text } = await getPage(`${running.consoleUrl}/requests/${TASK}/trace`, cookie);
    expect(status).toBe(200);
    expectWaterfall(text);
    expect(text).toContain(`<a href="${jaegerUrl}/trace/${TRACE}" rel="noreferrer">Open in Jaeger</a>`);
    expect(asked).toContain('/api/traces');
  });

  it('says so when there is no span file yet, or Jaeger does not answer', async () => {
    const { url: gone } = await fakeJaeger([]);
    jaeger?.closeAllConnections();
    await new Promise((resolve) => jaeger?.close(resolve));
    jaeger = undefined;
    for (const [trace, status, shown] of [
      [spanTraceView({ spanFile: join(dir, 'none.jsonl'), service: 'mailer' }), 200, 'names task task-7 yet'],
      [
        spanTraceView({ jaegerUrl: gone, service: 'mailer' }),
        502,
        'Cannot read the traces: Could not reach Jaeger at',
      ],
    ] as const) {
      running = await startConsoleHost({
        email: { to: 'a@example.com', subject: 's', body: 'b' },
        pages: { trace },
      });
      const page = await getPage(
        `${running.consoleUrl}/requests/${TASK}/trace`,
        await operatorCookie(running.consoleUrl),
      );
      expect(page.status).toBe(status);
      expect(page.text).toContain(shown);
      await running.close();
      running = undefined;
    }
  });

  it('says where traces would come from when the console reads none', async () => {
    running = await startConsoleHost({ email: { to: 'a@example.com', subject: 's', body: 'b' } });
    const cookie = await operatorCookie(running.consoleUrl);
    const { status, text } = await getPage(`${running.consoleUrl}/requests/${TASK}/trace`, cookie);
    expect(status).toBe(200);
    expect(text).toContain('This console reads no traces');
  });
});
