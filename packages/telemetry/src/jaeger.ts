import { z } from 'zod';
import { isTelemetryError, TelemetryError } from './errors.ts';
import { JaegerTraceResponse, jaegerToSpanRecords } from './jaeger-json.ts';
import { OtlpTraceData, otlpToSpanRecords } from './otlp-json.ts';
import type { SpanRecord } from './span-record.ts';

/** Options of {@link fetchJaegerTrace}. */
export interface FetchJaegerTraceOptions {
  /** Jaeger's query base URL (UI and API), e.g. `http://localhost:16686`. */
  baseUrl: string;
  /** The trace id: 32 hex digits. */
  traceId: string;
  /** Default: the global `fetch`. */
  fetchImpl?: typeof fetch;
  signal?: AbortSignal;
}

/**
 * Reads one trace from Jaeger v2 as span records: from `/api/v3/traces/{id}` (OTLP JSON), falling
 * back to `/api/traces/{id}` (Jaeger's own JSON) when v3 is missing or has nothing.
 *
 * @example
 * const spans = await fetchJaegerTrace({ baseUrl: 'http://localhost:16686', traceId });
 * console.log(renderTraceTree(buildTraceTree(spans)).join('\n'));
 */
export async function fetchJaegerTrace({
  baseUrl,
  traceId,
  fetchImpl = fetch,
  signal,
}: FetchJaegerTraceOptions): Promise<SpanRecord[]> {
  if (!/^[0-9a-f]{32}$/i.test(traceId ?? '')) {
    throw new TelemetryError('INVALID_OPTIONS', {
      message: `"${traceId}" is not a trace id: give the 32 hex digits Jaeger shows.`,
    });
  }
  const base = jaegerBase(baseUrl);
  const id = traceId.toLowerCase();
  const read = async <T>(path: string, schema: z.ZodType<T>): Promise<T | undefined> => {
    const { found, body } = await getJson({ url: new URL(path, base), fetchImpl, signal });
    return found ? parse({ schema, body, path }) : undefined;
  };
  // v3 first; a server without it (404, or the UI's HTML page) falls through to the older API.
  let v3Error: unknown;
  try {
    const spans = otlpToSpanRecords((await read(`api/v3/traces/${id}`, V3Response))?.result ?? {});
    if (spans.length > 0) return spans;
  } catch (error) {
    if (isTelemetryError(error, 'JAEGER_UNREACHABLE')) throw error;
    v3Error = error;
  }
  const legacy = await read(`api/traces/${id}`, JaegerTraceResponse);
  const spans = legacy ? jaegerToSpanRecords(legacy) : [];
  if (spans.length > 0) return spans;
  if (v3Error) throw v3Error;
  throw new TelemetryError('TRACE_NOT_FOUND', {
    message: `Jaeger at ${base.origin} has no trace ${id}. Spans are sent in batches (up to 5 s) and Jaeger keeps them in memory only: retry shortly, and check the service's OTLP endpoint.`,
  });
}

/** Jaeger's query base URL with a trailing slash, or an error saying what to give. */
export function jaegerBase(baseUrl: string): URL {
  try {
    return new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  } catch (error) {
    throw new TelemetryError('INVALID_OPTIONS', {
      message: `"${baseUrl}" is not a URL: give Jaeger's query address, e.g. http://localhost:16686.`,
      cause: error,
    });
  }
}

const V3Response = z.object({ result: OtlpTraceData.optional() });

/** GETs JSON from Jaeger: `found: false` on a 404; unreachable and non-JSON answers are errors. */
export async function getJson({
  url,
  fetchImpl,
  signal,
}: {
  url: URL;
  fetchImpl: typeof fetch;
  signal: AbortSignal | undefined;
}): Promise<{ found: boolean; body: unknown }> {
  let response: Response;
  try {
    response = await fetchImpl(url, {
      headers: { accept: 'application/json' },
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    throw new TelemetryError('JAEGER_UNREACHABLE', {
      message: `Could not reach Jaeger at ${url.origin}: is it running, and is that its query port (16686)?`,
      cause: error,
    });
  }
  if (response.status === 404) {
    await response.body?.cancel();
    return { found: false, body: undefined };
  }
  if (!response.ok) {
    throw new TelemetryError('JAEGER_BAD_RESPONSE', {
      message: `Jaeger answered ${url.pathname} with HTTP ${response.status}.`,
    });
  }
  try {
    return { found: true, body: await response.json() };
  } catch (error) {
    throw new TelemetryError('JAEGER_BAD_RESPONSE', {
      message: `Jaeger answered ${url.pathname} with a body that is not JSON.`,
      cause: error,
    });
  }
}

/** Parses what Jaeger answered on `path`, or says which part we cannot read. */
export function parse<T>({ schema, body, path }: { schema: z.ZodType<T>; body: unknown; path: string }): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new TelemetryError('JAEGER_BAD_RESPONSE', {
      message: `Jaeger answered /${path} with JSON we cannot read: ${parsed.error.issues[0]?.message}.`,
    });
  }
  return parsed.data;
}
