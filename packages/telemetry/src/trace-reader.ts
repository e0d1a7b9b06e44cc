import { A2A } from '@switchboard/semconv';
import { TelemetryError } from './errors.ts';
import { fetchJaegerTrace } from './jaeger.ts';
import { searchJaegerSpans } from './jaeger-search.ts';
import { type SkippedSpanLine, scanSpanFile } from './span-file.ts';
import type { SpanRecord } from './span-record.ts';
import { buildTraceTree, lastTraceId } from './trace-tree.ts';

/** Where a trace is read from: Jaeger's query API when `jaegerUrl` is given, else the span file. */
export interface TraceSource {
  /** The dev span file written by `SpanFileExporter` (e.g. `.switchboard/spans.jsonl`). */
  spanFile?: string | undefined;
  /** Jaeger's query base URL (UI and API), e.g. `http://localhost:16686`; read instead of the file. */
  jaegerUrl?: string | undefined;
  /** Default: the global `fetch`. */
  fetchImpl?: typeof fetch;
  signal?: AbortSignal;
}

/** Options of {@link readTrace}. */
export interface ReadTraceOptions extends TraceSource {
  /** The trace id (32 hex digits), or `last`: the span file's latest trace. */
  traceId: string;
}

/** One trace as {@link readTrace} read it. */
export interface TraceRead {
  /** The trace's id, lower case (the latest one's for `last`; empty when the file has no spans). */
  traceId: string;
  /** Its spans, in source order; none when the source has none of it. */
  spans: SpanRecord[];
  /** Where they came from: the span file's path or Jaeger's URL. */
  source: string;
  /** Lines of the span file that hold no span (a damaged line hides no other trace). */
  skipped: SkippedSpanLine[];
}

const TRACE_ID = /^[0-9a-f]{32}$/i;

function sourceOf({ spanFile, jaegerUrl }: TraceSource): { jaegerUrl: string } | { spanFile: string } {
  if (jaegerUrl) return { jaegerUrl };
  if (spanFile) return { spanFile };
  throw new TelemetryError('INVALID_OPTIONS', {
    message: 'Give where to read traces from: spanFile (the dev span file) or jaegerUrl (Jaeger).',
  });
}

/**
 * Reads one trace from the dev span file or, when `jaegerUrl` is given, from Jaeger's query API (the
 * same spans either way, see `SpanRecord`). `switchboard trace` and the console's trace page read
 * traces with it.
 *
 * @example
 * const { spans } = await readTrace({ traceId, spanFile: '.switchboard/spans.jsonl' });
 * console.log(renderTraceTree(buildTraceTree(spans)).join('\n'));
 */
export async function readTrace({ traceId, ...options }: ReadTraceOptions): Promise<TraceRead> {
  const source = sourceOf(options);
  const last = traceId === 'last';
  if (!last && !TRACE_ID.test(traceId ?? '')) {
    throw new TelemetryError('INVALID_OPTIONS', {
      message: `"${traceId}" is not a trace id: give the 32 hex digits of a trace id, or "last".`,
    });
  }
  if ('jaegerUrl' in source) {
    if (last) {
      throw new TelemetryError('INVALID_OPTIONS', {
        message: '"last" reads the local span file; from Jaeger give the trace id.',
      });
    }
    const { fetchImpl, signal } = options;
    const spans = await fetchJaegerTrace({
      baseUrl: source.jaegerUrl,
      traceId,
      ...(fetchImpl ? { fetchImpl } : {}),
      ...(signal ? { signal } : {}),
    });
    return { traceId: traceId.toLowerCase(), spans, source: source.jaegerUrl, skipped: [] };
  }
  const { spans: all, skipped } = await scanSpanFile(source.spanFile);
  const id = (last ? lastTraceId(all) : traceId.toLowerCase()) ?? '';
  return { traceId: id, spans: all.filter((span) => span.traceId === id), source: source.spanFile, skipped };
}

/** Options of {@link traceIdsOfTask}. */
export interface TraceIdsOfTaskOptions extends TraceSource {
  /** The A2A task id (`a2a.task.id` on its spans). */
  taskId: string;
  /** With Jaeger: the service whose spans name the task (Jaeger searches one service), e.g. `supervisor`. */
  service?: string;
  /** Traces at most, the latest kept (default 20). */
  limit?: number;
}

/**
 * The traces that served an A2A task (a task that waited for an approval has one for the request
 * and one for the resumption), read whole: those with a span whose `a2a.task.id` is the task's,
 * oldest first, the latest `limit` kept. One read: the span file once, or one Jaeger search (which
 * answers with the traces it found).
 *
 * @example
 * for (const { traceId, spans } of await readTracesOfTask({ taskId, spanFile })) draw(traceId, spans);
 */
export async function readTracesOfTask({
  taskId,
  service,
  limit = 20,
  ...options
}: TraceIdsOfTaskOptions): Promise<TraceRead[]> {
  const source = sourceOf(options);
  let spans: SpanRecord[];
  let skipped: SkippedSpanLine[] = [];
  if ('jaegerUrl' in source) {
    if (!service) {
      throw new TelemetryError('INVALID_OPTIONS', {
        message: 'Jaeger searches one service at a time: give the service whose spans name the task.',
      });
    }
    const { fetchImpl, signal } = options;
    spans = await searchJaegerSpans({
      baseUrl: source.jaegerUrl,
      service,
      tags: { [A2A.taskId]: taskId },
      limit,
      ...(fetchImpl ? { fetchImpl } : {}),
      ...(signal ? { signal } : {}),
    });
  } else {
    const scan = await scanSpanFile(source.spanFile);
    const ids = new Set(
      scan.spans.filter((span) => span.attributes[A2A.taskId] === taskId).map((span) => span.traceId),
    );
    spans = scan.spans.filter((span) => ids.has(span.traceId));
    skipped = scan.skipped;
  }
  // Each trace by when its first root started.
  const started = new Map<string, number>();
  for (const { span } of buildTraceTree(spans).roots) {
    const known = started.get(span.traceId);
    if (known === undefined || span.startMs < known) started.set(span.traceId, span.startMs);
  }
  const where = 'jaegerUrl' in source ? source.jaegerUrl : source.spanFile;
  return [...started.entries()]
    .sort(([, a], [, b]) => a - b)
    .slice(-limit)
    .map(([traceId]) => ({
      traceId,
      spans: spans.filter((span) => span.traceId === traceId),
      source: where,
      skipped,
    }));
}

/**
 * The ids of the traces that served an A2A task, oldest first (see {@link readTracesOfTask}).
 *
 * @example
 * const [first] = await traceIdsOfTask({ taskId, spanFile: '.switchboard/spans.jsonl' });
 */
export async function traceIdsOfTask(options: TraceIdsOfTaskOptions): Promise<string[]> {
  return (await readTracesOfTask(options)).map((read) => read.traceId);
}

/** The link to a trace in Jaeger's UI, e.g. `http://localhost:16686/trace/<id>`. */
export const jaegerTraceUrl = ({ jaegerUrl, traceId }: { jaegerUrl: string; traceId: string }): string =>
  `${jaegerUrl.replace(/\/+$/, '')}/trace/${traceId}`;
