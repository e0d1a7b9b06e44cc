import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { hrTimeToMilliseconds } from '@opentelemetry/core';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { RESOURCE } from '@switchboard/semconv';
import { z } from 'zod';

/** A span kind, lower-case as Jaeger shows it. */
export const SpanKindName = z.enum(['internal', 'server', 'client', 'producer', 'consumer']);
export type SpanKindName = z.infer<typeof SpanKindName>;

/** A span status: `unset` and `ok` both render as ok. */
export const SpanStatusName = z.enum(['unset', 'ok', 'error']);
export type SpanStatusName = z.infer<typeof SpanStatusName>;

const Primitive = z.union([z.string(), z.number(), z.boolean()]);

/** An attribute value as a span record keeps it. */
export const SpanRecordAttributeValue = z.union([Primitive, z.array(Primitive)]);
export type SpanRecordAttributeValue = z.infer<typeof SpanRecordAttributeValue>;

/**
 * One finished span as the span file stores it and as the trace tree reads it, whatever it came
 * from (the local span file, Jaeger's OTLP JSON or Jaeger's own JSON). Times in milliseconds since
 * the epoch, to the microsecond; 0 when the source gave none ({@link hasTimes}).
 */
export const SpanRecord = z.object({
  traceId: z.string().regex(/^[0-9a-f]{32}$/),
  spanId: z.string().regex(/^[0-9a-f]{16}$/),
  parentSpanId: z
    .string()
    .regex(/^[0-9a-f]{16}$/)
    .optional(),
  name: z.string(),
  kind: SpanKindName,
  service: z.string(),
  startMs: z.number(),
  endMs: z.number(),
  durationMs: z.number(),
  status: z.object({ code: SpanStatusName, message: z.string().optional() }),
  attributes: z.record(z.string(), SpanRecordAttributeValue),
  /** What the backend found wrong with the span (Jaeger: clock skew, invalid parent, ...). */
  warnings: z.array(z.string()).optional(),
});
export type SpanRecord = z.infer<typeof SpanRecord>;

/** Whether the span's times are known: sources that omit zero fields may give none. */
export function hasTimes(span: Pick<SpanRecord, 'startMs' | 'endMs'>): boolean {
  return span.startMs > 0 && span.endMs >= span.startMs;
}

const KIND_NAMES: Record<SpanKind, SpanKindName> = {
  [SpanKind.INTERNAL]: 'internal',
  [SpanKind.SERVER]: 'server',
  [SpanKind.CLIENT]: 'client',
  [SpanKind.PRODUCER]: 'producer',
  [SpanKind.CONSUMER]: 'consumer',
};

const STATUS_NAMES: Record<SpanStatusCode, SpanStatusName> = {
  [SpanStatusCode.UNSET]: 'unset',
  [SpanStatusCode.OK]: 'ok',
  [SpanStatusCode.ERROR]: 'error',
};

/** Milliseconds rounded to the microsecond, so every source yields the same numbers. */
export function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** A finished SDK span as a {@link SpanRecord}. */
export function toSpanRecord(span: ReadableSpan): SpanRecord {
  const { traceId, spanId } = span.spanContext();
  const parentSpanId = span.parentSpanContext?.spanId;
  const service = span.resource.attributes[RESOURCE.serviceName];
  const attributes: SpanRecord['attributes'] = {};
  for (const [key, value] of Object.entries(span.attributes)) {
    const parsed = SpanRecordAttributeValue.safeParse(
      Array.isArray(value) ? value.filter((item) => item !== null && item !== undefined) : value,
    );
    if (parsed.success) attributes[key] = parsed.data;
  }
  const startMs = roundMs(hrTimeToMilliseconds(span.startTime));
  const durationMs = roundMs(hrTimeToMilliseconds(span.duration));
  return {
    traceId,
    spanId,
    ...(parentSpanId ? { parentSpanId } : {}),
    name: span.name,
    kind: KIND_NAMES[span.kind] ?? 'internal',
    service: typeof service === 'string' ? service : 'unknown_service',
    startMs,
    endMs: roundMs(hrTimeToMilliseconds(span.endTime)),
    durationMs,
    status: {
      code: STATUS_NAMES[span.status.code] ?? 'unset',
      ...(span.status.message ? { message: span.status.message } : {}),
    },
    attributes,
  };
}
