import { readTrace, readTracesOfTask, type SpanRecord } from '@switchboard/telemetry/trace';

/** One trace of a request, as the trace page draws it. */
export interface RequestTrace {
  traceId: string;
  spans: readonly SpanRecord[];
}

/** Where the trace page reads a request's traces from. */
export interface TraceView {
  /** Where the spans come from, for the page to say (a span file's path, Jaeger's URL). */
  source: string;
  /** Jaeger's UI, for an "Open in Jaeger" link on each trace; none without it. */
  jaegerUiUrl?: string | undefined;
  /** The traces that served a task (the request, each resumption), oldest first. */
  ofTask(taskId: string): Promise<readonly RequestTrace[]>;
  /** One trace by its id (32 hex digits); no spans when the source has none of it. */
  trace(traceId: string): Promise<RequestTrace>;
}

/** Options of {@link spanTraceView}. */
export interface SpanTraceViewOptions {
  /** The dev span file (`SWITCHBOARD_SPAN_FILE`); read when no `jaegerUrl` is given. */
  spanFile?: string | undefined;
  /** Jaeger's query base URL (`SWITCHBOARD_JAEGER_URL`, UI and API), read instead of the span file. */
  jaegerUrl?: string | undefined;
  /** The service whose spans name the task (the supervisor's `service.name`), for Jaeger's search. */
  service: string;
  /** Traces of one request drawn at most, the latest kept (default 5). */
  maxTraces?: number;
}

/**
 * A request's traces as `switchboard trace` reads them (`readTracesOfTask` of `@switchboard/telemetry`): from
 * Jaeger's query API when its URL is given, else from the dev span file; with Jaeger, each trace links
 * to its UI.
 *
 * @example
 * consoleRoutes({ trace: spanTraceView({ spanFile: '.switchboard/spans.jsonl', service: 'supervisor' }) });
 */
export function spanTraceView({
  spanFile,
  jaegerUrl,
  service,
  maxTraces = 5,
}: SpanTraceViewOptions): TraceView {
  const source = jaegerUrl ? { jaegerUrl } : { spanFile };
  return {
    source: jaegerUrl ?? spanFile ?? '',
    jaegerUiUrl: jaegerUrl,
    async ofTask(taskId) {
      const traces = await readTracesOfTask({ taskId, service, limit: maxTraces, ...source });
      return traces.map(({ traceId, spans }) => ({ traceId, spans }));
    },
    async trace(traceId) {
      const { spans } = await readTrace({ traceId, ...source });
      return { traceId: traceId.toLowerCase(), spans };
    },
  };
}
