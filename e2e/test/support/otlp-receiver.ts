import { createServer, type Server } from 'node:http';
import { OtlpTraceData, otlpToSpanRecords, type SpanRecord } from '@switchboard/telemetry';

/**
 * A loopback OTLP/HTTP receiver (the JSON encoding the exporter sends), standing in for Jaeger's
 * port 4318. Keeps every raw body too, so a test can search all that was exported.
 */
export async function startOtlpReceiver(): Promise<{
  endpoint: string;
  spans: SpanRecord[];
  raw: string[];
  close(): Promise<void>;
}> {
  const spans: SpanRecord[] = [];
  const raw: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      raw.push(body);
      if (req.url === '/v1/traces')
        spans.push(...otlpToSpanRecords(OtlpTraceData.parse(JSON.parse(body || '{}'))));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    raw,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
