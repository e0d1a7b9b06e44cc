import { getJson, jaegerBase, parse } from './jaeger.ts';
import { JaegerTraceResponse, jaegerToSpanRecords } from './jaeger-json.ts';
import type { SpanRecord } from './span-record.ts';

/** Options of {@link searchJaegerSpans}. */
export interface SearchJaegerSpansOptions {
  /** Jaeger's query base URL (UI and API), e.g. `http://localhost:16686`. */
  baseUrl: string;
  /** The service whose spans carry the tags (Jaeger searches one service at a time). */
  service: string;
  /** Span attributes every found trace has on one span of `service`, e.g. `{ 'a2a.task.id': id }`. */
  tags: Record<string, string>;
  /** How far back to look, in ms (default 7 days, Switchboard's task retention). */
  lookbackMs?: number;
  /** Traces at most (default 20). */
  limit?: number;
  /** Default: the global `fetch`. */
  fetchImpl?: typeof fetch;
  signal?: AbortSignal;
}

const WEEK_MS = 7 * 24 * 3600 * 1000;

/**
 * Finds traces in Jaeger by their span attributes, through its search API (`GET /api/traces` with
 * `service` and `tags`, which Jaeger v1 and v2 both serve), and gives every span of them.
 *
 * @example
 * const spans = await searchJaegerSpans({ baseUrl, service: 'supervisor', tags: { 'a2a.task.id': taskId } });
 */
export async function searchJaegerSpans({
  baseUrl,
  service,
  tags,
  lookbackMs = WEEK_MS,
  limit = 20,
  fetchImpl = fetch,
  signal,
}: SearchJaegerSpansOptions): Promise<SpanRecord[]> {
  const base = jaegerBase(baseUrl);
  const endUs = Date.now() * 1000;
  const url = new URL('api/traces', base);
  url.search = new URLSearchParams({
    service,
    tags: JSON.stringify(tags),
    start: String(endUs - lookbackMs * 1000),
    end: String(endUs),
    limit: String(limit),
  }).toString();
  const { found, body } = await getJson({ url, fetchImpl, signal });
  return found ? jaegerToSpanRecords(parse({ schema: JaegerTraceResponse, body, path: 'api/traces' })) : [];
}
