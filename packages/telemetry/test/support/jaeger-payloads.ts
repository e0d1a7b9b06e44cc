import type { SpanRecord } from '../../src/index.ts';

const KIND_NUMBERS = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;
const STATUS_NUMBERS = { unset: 0, ok: 1, error: 2 } as const;
const nanos = (ms: number) => (BigInt(Math.round(ms * 1000)) * 1000n).toString();

function otlpValue(value: SpanRecord['attributes'][string]): Record<string, unknown> {
  if (Array.isArray(value)) return { arrayValue: { values: value.map(otlpValue) } };
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  return Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value };
}

/**
 * What Jaeger v2 answers on `GET /api/v3/traces/{id}`: OTLP JSON, one resource per service, written
 * as protojson writes it: fields that are zero left out (a span's times, an unset status code, the
 * kind UNSPECIFIED), a root's `parentSpanId` empty, and Jaeger's warnings in its `@jaeger@warnings`
 * attribute.
 */
export function toJaegerV3(spans: readonly SpanRecord[]): unknown {
  const services = [...new Set(spans.map((span) => span.service))];
  return {
    result: {
      resourceSpans: services.map((service) => ({
        resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
        scopeSpans: [
          {
            scope: { name: 'switchboard' },
            spans: spans
              .filter((span) => span.service === service)
              .map((span) => ({
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId ?? '',
                name: span.name,
                kind: KIND_NUMBERS[span.kind],
                ...(span.startMs ? { startTimeUnixNano: nanos(span.startMs) } : {}),
                ...(span.endMs ? { endTimeUnixNano: nanos(span.endMs) } : {}),
                attributes: [
                  ...Object.entries(span.attributes).map(([key, value]) => ({
                    key,
                    value: otlpValue(value),
                  })),
                  ...(span.warnings ? [{ key: '@jaeger@warnings', value: otlpValue(span.warnings) }] : []),
                ],
                status: {
                  ...(span.status.code === 'unset' ? {} : { code: STATUS_NUMBERS[span.status.code] }),
                  ...(span.status.message ? { message: span.status.message } : {}),
                },
              })),
          },
        ],
      })),
    },
  };
}

function jaegerTag(key: string, value: SpanRecord['attributes'][string]) {
  if (Array.isArray(value)) return { key, type: 'string', value: JSON.stringify(value) };
  if (typeof value === 'string') return { key, type: 'string', value };
  if (typeof value === 'boolean') return { key, type: 'bool', value };
  return { key, type: Number.isInteger(value) ? 'int64' : 'float64', value };
}

/**
 * What Jaeger answers on `GET /api/traces/{id}`: its own JSON, times in µs, kind and status as
 * translator tags, arrays as JSON text, services in `processes`, warnings in the span's `warnings`.
 */
export function toJaegerLegacy(spans: readonly SpanRecord[]): unknown {
  const services = [...new Set(spans.map((span) => span.service))];
  const processId = (service: string) => `p${services.indexOf(service) + 1}`;
  return {
    data: [
      {
        traceID: spans[0]?.traceId,
        spans: spans.map((span) => ({
          traceID: span.traceId,
          spanID: span.spanId,
          operationName: span.name,
          references: span.parentSpanId
            ? [{ refType: 'CHILD_OF', traceID: span.traceId, spanID: span.parentSpanId }]
            : [],
          startTime: Math.round(span.startMs * 1000),
          duration: Math.round(span.durationMs * 1000),
          tags: [
            { key: 'otel.scope.name', type: 'string', value: 'switchboard' },
            ...(span.kind === 'internal' ? [] : [{ key: 'span.kind', type: 'string', value: span.kind }]),
            ...Object.entries(span.attributes).map(([key, value]) => jaegerTag(key, value)),
            ...(span.status.code === 'error'
              ? [
                  { key: 'error', type: 'bool', value: true },
                  { key: 'otel.status_code', type: 'string', value: 'ERROR' },
                  { key: 'otel.status_description', type: 'string', value: span.status.message },
                ]
              : []),
            { key: 'internal.span.format', type: 'string', value: 'otlp' },
          ],
          logs: [],
          processID: processId(span.service),
          warnings: span.warnings ?? null,
        })),
        processes: Object.fromEntries(
          services.map((service) => [processId(service), { serviceName: service, tags: [] }]),
        ),
        warnings: null,
      },
    ],
    total: 0,
    limit: 0,
    offset: 0,
    errors: null,
  };
}
