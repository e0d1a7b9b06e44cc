import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OtlpTraceData, otlpToSpanRecords, type SpanRecord } from '@switchboard/telemetry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, switchboard } from './support.ts';

let dir = '';
let receiver: Server;
let endpoint = '';
const spans: SpanRecord[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchboard-command-span-'));
  await writeFile(join(dir, 'broken.json'), '{"name": "Echo",');
  // A loopback OTLP/HTTP receiver (JSON), standing in for a collector.
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      if (request.url === '/v1/traces')
        spans.push(...otlpToSpanRecords(OtlpTraceData.parse(JSON.parse(body))));
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const address = receiver.address();
  endpoint = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

describe('the command’s own span (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  it('exports the command as a root span named after it, with its exit code, before the process ends', async () => {
    const { code } = await switchboard(['cards', 'check', join(dir, 'broken.json')], {
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    });
    expect(code).toBe(2);
    const [span, ...rest] = spans;
    expect(rest).toEqual([]);
    expect(span).toMatchObject({
      name: 'switchboard cards check',
      kind: 'internal',
      service: 'switchboard-cli',
      status: { code: 'error' },
      attributes: { 'process.executable.name': 'switchboard', 'process.exit.code': 2, 'error.type': '2' },
    });
    expect(span?.parentSpanId).toBeUndefined();
  });

  it('keeps the command’s outcome when the collector cannot be reached, and says so', async () => {
    const { code, stdout, stderr } = await switchboard(['cards', 'check', join(dir, 'broken.json')], {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${await closedPort()}`,
    });
    expect(code).toBe(2);
    expect(stdout).toContain('broken.json: cannot be read: not JSON');
    expect(stderr).toMatch(
      /spans could not be exported to http:\/\/127\.0\.0\.1:\d+ \(OTEL_EXPORTER_OTLP_ENDPOINT\)/,
    );
  });

  it('refuses an endpoint that is not an http(s) URL, naming the variable', async () => {
    const { code, stderr } = await switchboard(['cards', 'check', join(dir, 'broken.json')], {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4318',
    });
    expect(code).toBe(2);
    expect(stderr).toContain('OTEL_EXPORTER_OTLP_ENDPOINT is "localhost:4318", not an http(s) URL');
  });
});
