import { z } from 'zod';
import { takeJaegerWarnings } from './jaeger-warnings.ts';
import {
  roundMs,
  SpanKindName,
  type SpanRecord,
  type SpanRecordAttributeValue,
  type SpanStatusName,
} from './span-record.ts';

const JaegerTag = z.object({ key: z.string(), type: z.string().optional(), value: z.unknown() });

const JaegerSpan = z.object({
  traceID: z.string(),
  spanID: z.string(),
  operationName: z.string(),
  references: z
    .array(z.object({ refType: z.string(), traceID: z.string().optional(), spanID: z.string() }))
    .nullish(),
  startTime: z.number(),
  duration: z.number(),
  tags: z.array(JaegerTag).nullish(),
  processID: z.string(),
  warnings: z.array(z.string()).nullish(),
});

/** Jaeger's own trace JSON: the body of `GET /api/traces/{id}` (the internal, undocumented API). */
export const JaegerTraceResponse = z.object({
  data: z
    .array(
      z.object({
        spans: z.array(JaegerSpan),
        processes: z.record(z.string(), z.object({ serviceName: z.string() })),
      }),
    )
    .nullish(),
});
export type JaegerTraceResponse = z.infer<typeof JaegerTraceResponse>;

/** Tags Jaeger's OTLP translator adds; they are span fields or noise, not attributes. */
const TRANSLATOR_TAGS = new Set([
  'span.kind',
  'otel.status_code',
  'otel.status_description',
  'otel.scope.name',
  'otel.scope.version',
  'otel.library.name',
  'otel.library.version',
  'internal.span.format',
  'w3c.tracestate',
  'error',
]);

/**
 * Converts Jaeger's trace JSON to span records. Jaeger stores array attributes as JSON text; arrays
 * of plain values are turned back into arrays so both Jaeger APIs give the same records.
 */
export function jaegerToSpanRecords(response: JaegerTraceResponse): SpanRecord[] {
  const records: SpanRecord[] = [];
  for (const trace of response.data ?? []) {
    for (const span of trace.spans) {
      const tags = new Map((span.tags ?? []).map((tag) => [tag.key, tag.value]));
      const parent = span.references?.find((reference) => reference.refType === 'CHILD_OF');
      const kind = SpanKindName.safeParse(tags.get('span.kind'));
      const statusText = String(tags.get('otel.status_code') ?? '').toLowerCase();
      const status: SpanStatusName =
        statusText === 'error' || tags.get('error') === true ? 'error' : statusText === 'ok' ? 'ok' : 'unset';
      const message = tags.get('otel.status_description');
      const tagged: Record<string, SpanRecordAttributeValue> = {};
      for (const [key, value] of tags) {
        const converted = TRANSLATOR_TAGS.has(key) ? undefined : toValue(value);
        if (converted !== undefined) tagged[key] = converted;
      }
      // Jaeger moves its warnings to `warnings`; one left among the tags is one too.
      const { attributes, warnings: tagWarnings } = takeJaegerWarnings(tagged);
      const warnings = [...(span.warnings ?? []), ...tagWarnings];
      records.push({
        traceId: span.traceID.toLowerCase().padStart(32, '0'),
        spanId: span.spanID.toLowerCase().padStart(16, '0'),
        ...(parent ? { parentSpanId: parent.spanID.toLowerCase().padStart(16, '0') } : {}),
        name: span.operationName,
        kind: kind.success ? kind.data : 'internal',
        service: trace.processes[span.processID]?.serviceName ?? 'unknown_service',
        startMs: roundMs(span.startTime / 1000),
        endMs: roundMs((span.startTime + span.duration) / 1000),
        durationMs: roundMs(span.duration / 1000),
        status: { code: status, ...(typeof message === 'string' && message ? { message } : {}) },
        attributes,
        ...(warnings.length > 0 ? { warnings } : {}),
      });
    }
  }
  return records;
}

const PlainArray = z.array(z.union([z.string(), z.number(), z.boolean()]));

function toValue(value: unknown): SpanRecordAttributeValue | undefined {
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value !== 'string') return undefined;
  if (value.startsWith('[') && value.endsWith(']')) {
    try {
      const parsed = PlainArray.safeParse(JSON.parse(value));
      if (parsed.success) return parsed.data;
    } catch {
      // plain text that looks like an array
    }
  }
  return value;
}
