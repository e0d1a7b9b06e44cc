import type { SpanRecordAttributeValue } from './span-record.ts';

/**
 * The attribute in which Jaeger v2 keeps what it found wrong with a span (clock skew, an invalid
 * parent, ...). Its own JSON API moves it to the span's `warnings`; its OTLP API leaves it an
 * attribute, which is not one of the span's own.
 */
export const JAEGER_WARNINGS_ATTRIBUTE = '@jaeger@warnings';

/**
 * Takes Jaeger's warnings out of a span's attributes: the attributes without them, and the
 * warnings as text (none when there are none).
 */
export function takeJaegerWarnings(attributes: Record<string, SpanRecordAttributeValue>): {
  attributes: Record<string, SpanRecordAttributeValue>;
  warnings: string[];
} {
  const { [JAEGER_WARNINGS_ATTRIBUTE]: value, ...rest } = attributes;
  const warnings = value === undefined ? [] : (Array.isArray(value) ? value : [value]).map(String);
  return { attributes: rest, warnings: warnings.filter((warning) => warning !== '') };
}
