import { RESOURCE } from '@switchboard/semconv';
import { z } from 'zod';
import { takeJaegerWarnings } from './jaeger-warnings.ts';
import {
  hasTimes,
  roundMs,
  type SpanKindName,
  type SpanRecord,
  type SpanRecordAttributeValue,
  type SpanStatusName,
} from './span-record.ts';

const Int = z.union([z.number(), z.string()]);
/** Nanoseconds since the epoch: a decimal string (int64 in JSON) or a safe integer. */
const Nanos = z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/)]);

/** An OTLP `AnyValue` as JSON: only the variants attributes use. */
interface OtlpAnyValue {
  stringValue?: string | undefined;
  boolValue?: boolean | undefined;
  intValue?: number | string | undefined;
  doubleValue?: number | string | undefined;
  arrayValue?: { values?: OtlpAnyValue[] | undefined } | undefined;
}
const OtlpAnyValue: z.ZodType<OtlpAnyValue> = z.lazy(() =>
  z.object({
    stringValue: z.string().optional(),
    boolValue: z.boolean().optional(),
    intValue: Int.optional(),
    doubleValue: Int.optional(),
    arrayValue: z.object({ values: z.array(OtlpAnyValue).optional() }).optional(),
  }),
);
const OtlpKeyValue = z.object({ key: z.string(), value: OtlpAnyValue.optional() });

const OtlpSpan = z.object({
  traceId: z.string(),
  spanId: z.string(),
  parentSpanId: z.string().optional(),
  name: z.string(),
  kind: Int.optional(),
  // The OTLP JSON mapping omits fields that are zero: a span may come without its times.
  startTimeUnixNano: Nanos.optional(),
  endTimeUnixNano: Nanos.optional(),
  attributes: z.array(OtlpKeyValue).optional(),
  status: z.object({ code: Int.optional(), message: z.string().optional() }).optional(),
});

/** OTLP JSON trace data: the body of `POST /v1/traces` and the `result` of Jaeger's `/api/v3/traces/{id}`. */
export const OtlpTraceData = z.object({
  resourceSpans: z
    .array(
      z.object({
        resource: z.object({ attributes: z.array(OtlpKeyValue).optional() }).optional(),
        scopeSpans: z.array(z.object({ spans: z.array(OtlpSpan).optional() })).optional(),
      }),
    )
    .optional(),
});
export type OtlpTraceData = z.infer<typeof OtlpTraceData>;

const KINDS: readonly SpanKindName[] = ['internal', 'internal', 'server', 'client', 'producer', 'consumer'];
const STATUSES: readonly SpanStatusName[] = ['unset', 'ok', 'error'];

/** Converts validated OTLP JSON trace data to span records, in document order. */
export function otlpToSpanRecords(data: OtlpTraceData): SpanRecord[] {
  const records: SpanRecord[] = [];
  for (const resourceSpans of data.resourceSpans ?? []) {
    const named = toAttributes(resourceSpans.resource?.attributes)[RESOURCE.serviceName];
    const service = typeof named === 'string' ? named : 'unknown_service';
    for (const scope of resourceSpans.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) records.push(toRecord(span, service));
    }
  }
  return records;
}

function toRecord(span: z.infer<typeof OtlpSpan>, service: string): SpanRecord {
  const start = BigInt(span.startTimeUnixNano ?? 0);
  const end = BigInt(span.endTimeUnixNano ?? 0);
  const timed = hasTimes({ startMs: Number(start), endMs: Number(end) });
  const parentSpanId = span.parentSpanId ? toHexId(span.parentSpanId, 8) : '';
  const statusMessage = span.status?.message;
  const { attributes, warnings } = takeJaegerWarnings(toAttributes(span.attributes));
  return {
    traceId: toHexId(span.traceId, 16),
    spanId: toHexId(span.spanId, 8),
    ...(parentSpanId && !/^0+$/.test(parentSpanId) ? { parentSpanId } : {}),
    name: span.name,
    kind: KINDS[enumIndex(span.kind, 'SPAN_KIND_', ['UNSPECIFIED', ...KINDS.slice(1)])] ?? 'internal',
    service,
    startMs: roundMs(Number(start) / 1e6),
    endMs: roundMs(Number(end) / 1e6),
    durationMs: timed ? roundMs(Number(end - start) / 1e6) : 0,
    status: {
      code: STATUSES[enumIndex(span.status?.code, 'STATUS_CODE_', STATUSES)] ?? 'unset',
      ...(statusMessage ? { message: statusMessage } : {}),
    },
    attributes,
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/** An OTLP enum given as a number or as its protobuf name (`SPAN_KIND_SERVER`). */
function enumIndex(value: number | string | undefined, prefix: string, names: readonly string[]): number {
  if (value === undefined) return 0;
  if (typeof value === 'number' || /^\d+$/.test(value)) return Number(value);
  return Math.max(
    0,
    names.findIndex((name) => `${prefix}${name.toUpperCase()}` === value.toUpperCase()),
  );
}

/** Trace and span ids are hex in OTLP JSON; older protojson writers used base64. */
function toHexId(id: string, bytes: number): string {
  if (new RegExp(`^[0-9a-fA-F]{${bytes * 2}}$`).test(id)) return id.toLowerCase();
  const decoded = Buffer.from(id, 'base64');
  return decoded.length === bytes ? decoded.toString('hex') : id.toLowerCase();
}

function toAttributes(pairs: readonly z.infer<typeof OtlpKeyValue>[] | undefined) {
  const attributes: Record<string, SpanRecordAttributeValue> = {};
  for (const { key, value } of pairs ?? []) {
    const converted = value === undefined ? undefined : toValue(value);
    if (converted !== undefined) attributes[key] = converted;
  }
  return attributes;
}

function toValue(value: OtlpAnyValue): SpanRecordAttributeValue | undefined {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return Number(value.doubleValue);
  if (value.arrayValue) {
    const items = (value.arrayValue.values ?? []).map(toValue);
    return items.flatMap((item) => (item === undefined || Array.isArray(item) ? [] : [item]));
  }
  return undefined;
}
