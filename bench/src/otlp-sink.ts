/**
 * A loopback OTLP/HTTP receiver for the a2a-hop bench, run as its own process:
 *
 *   node src/otlp-sink.ts
 *
 * Accepts `POST /v1/traces` in the JSON encoding (what `@opentelemetry/exporter-trace-otlp-http`
 * sends) and answers 200 once a body is in. It stands in for a collector on another host, so while
 * the bench measures it only takes the bodies in, and parses them when asked for the count (or at
 * once, past MAX_PENDING_BYTES): parsing them meanwhile would take CPU time from the processes under
 * test, which a remote collector does not.
 *
 * Prints one line `ready <json>` ({ url }: the OTLP base URL) once it listens; answers `count` over the
 * IPC channel with a `SinkCount` (spans by service, kind and name; root spans; the CPU time it used
 * before that count); exits on SIGTERM.
 */
import { createServer } from 'node:http';
import { SinkCommand, type SinkCount } from './hop-ipc.ts';

/** Bodies kept unparsed up to this many bytes in all; past it, each is parsed as it comes. */
const MAX_PENDING_BYTES = 512 * 1024 * 1024;
/** Larger bodies are refused (the exporter sends batches of at most a few MB). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;
/** Distinct `<service> <kind> <name>` entries kept; the rest are counted under one entry. */
const MAX_NAMES = 200;
/** OTLP's SpanKind numbers, as the JSON encoding writes them. */
const KINDS = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];

const totals = { requests: 0, rejected: 0, bytes: 0, spans: 0, roots: 0 };
const byName = new Map<string, number>();
let pending: Buffer[] = [];
let pendingBytes = 0;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

function serviceName(resource: unknown): string {
  for (const attribute of list(isObject(resource) ? resource.attributes : undefined)) {
    if (isObject(attribute) && attribute.key === 'service.name' && isObject(attribute.value)) {
      return String(attribute.value.stringValue);
    }
  }
  return '?';
}

/** Counts the spans of one ExportTraceServiceRequest body. */
function count(body: Buffer): void {
  let request: unknown;
  try {
    request = JSON.parse(body.toString('utf8'));
  } catch {
    totals.rejected++;
    return;
  }
  for (const resourceSpans of list(isObject(request) ? request.resourceSpans : undefined)) {
    if (!isObject(resourceSpans)) continue;
    const service = serviceName(resourceSpans.resource);
    for (const scopeSpans of list(resourceSpans.scopeSpans)) {
      for (const span of list(isObject(scopeSpans) ? scopeSpans.spans : undefined)) {
        if (!isObject(span)) continue;
        totals.spans++;
        if (!span.parentSpanId) totals.roots++;
        const key = `${service} ${KINDS[Number(span.kind)] ?? String(span.kind)} ${String(span.name)}`;
        const entry = byName.has(key) || byName.size < MAX_NAMES ? key : '(other)';
        byName.set(entry, (byName.get(entry) ?? 0) + 1);
      }
    }
  }
}

const server = createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/v1/traces') {
    req.resume();
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  });
  req.on('end', () => {
    totals.requests++;
    totals.bytes += size;
    if (size > MAX_BODY_BYTES) {
      totals.rejected++;
      res.writeHead(413).end();
      return;
    }
    const body = Buffer.concat(chunks);
    if (pendingBytes + body.length <= MAX_PENDING_BYTES) {
      pending.push(body);
      pendingBytes += body.length;
    } else {
      count(body);
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});

process.on('message', (message: unknown) => {
  if (!SinkCommand.safeParse(message).success) return;
  const { user, system } = process.cpuUsage();
  for (const body of pending) count(body);
  pending = [];
  pendingBytes = 0;
  const reply: SinkCount = {
    type: 'count',
    ...totals,
    byName: Object.fromEntries(byName),
    cpuMs: (user + system) / 1000,
  };
  process.send?.(reply);
});
const shutdown = () => {
  setTimeout(() => process.exit(1), 5_000).unref();
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.once('SIGTERM', shutdown);
process.once('disconnect', shutdown);
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`ready ${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
