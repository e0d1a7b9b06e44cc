import type { JsonSchema } from '@switchboard/agent';

/** A scalar a JSON Schema `enum` or `const` may hold. */
export type EnumValue = string | number | boolean | null;

/** The parts of one JSON Schema property the offline planner understands. */
export interface PropertyView {
  name: string;
  /** `string`, `integer`, `number`, `boolean`, `array`, `object`, or undefined when unstated. */
  type: string | undefined;
  description: string | undefined;
  pattern: string | undefined;
  format: string | undefined;
  enum: readonly EnumValue[] | undefined;
  minimum: number | undefined;
  maximum: number | undefined;
  exclusiveMinimum: number | undefined;
  exclusiveMaximum: number | undefined;
  minLength: number | undefined;
  maxLength: number | undefined;
  items: PropertyView | undefined;
}

/** An object schema: its properties in declaration order and which ones are required. */
export interface ObjectView {
  properties: PropertyView[];
  required: ReadonlySet<string>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const asNumber = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** Merges a nullable `anyOf: [X, {type: null}]` into X, so optional-nullable fields read like X. */
function unwrap(schema: Record<string, unknown>): Record<string, unknown> {
  const variants = schema.anyOf ?? schema.oneOf;
  if (!Array.isArray(variants)) return schema;
  const concrete = variants.filter((variant) => isRecord(variant) && variant.type !== 'null');
  const [first] = concrete;
  return concrete.length === 1 && isRecord(first) ? { ...schema, ...first } : schema;
}

function readType(schema: Record<string, unknown>): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type))
    return schema.type.find((type) => type !== 'null' && typeof type === 'string');
  if (Array.isArray(schema.enum) && schema.enum.every((value) => typeof value === 'string')) return 'string';
  return undefined;
}

/** Reads one property schema. */
export function readProperty(name: string, raw: unknown): PropertyView {
  const schema = isRecord(raw) ? unwrap(raw) : {};
  const enumValues = Array.isArray(schema.enum)
    ? schema.enum.filter((value): value is EnumValue => value === null || typeof value !== 'object')
    : schema.const !== undefined && (schema.const === null || typeof schema.const !== 'object')
      ? [schema.const as EnumValue]
      : undefined;
  return {
    name,
    type: readType(schema),
    description: asString(schema.description),
    pattern: asString(schema.pattern),
    format: asString(schema.format),
    enum: enumValues,
    minimum: asNumber(schema.minimum),
    maximum: asNumber(schema.maximum),
    exclusiveMinimum: asNumber(schema.exclusiveMinimum),
    exclusiveMaximum: asNumber(schema.exclusiveMaximum),
    minLength: asNumber(schema.minLength),
    maxLength: asNumber(schema.maxLength),
    items: schema.items === undefined ? undefined : readProperty(`${name}[]`, schema.items),
  };
}

/** Reads an object schema (a tool's parameters or a response format's schema). */
export function readObjectSchema(schema: JsonSchema): ObjectView {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === 'string')
    : [];
  return {
    properties: Object.entries(properties).map(([name, raw]) => readProperty(name, raw)),
    required: new Set(required),
  };
}

/** Compiles a schema pattern (Unicode mode first, as JSON Schema means); undefined when unreadable. */
export function compilePattern(pattern: string, flags = ''): RegExp | undefined {
  for (const mode of [`${flags}u`, flags]) {
    try {
      return new RegExp(pattern, mode);
    } catch {
      // try the next mode
    }
  }
  return undefined;
}

function inRange(property: PropertyView, value: number): boolean {
  if (property.minimum !== undefined && value < property.minimum) return false;
  if (property.maximum !== undefined && value > property.maximum) return false;
  if (property.exclusiveMinimum !== undefined && value <= property.exclusiveMinimum) return false;
  return property.exclusiveMaximum === undefined || value < property.exclusiveMaximum;
}

/** Whether a value satisfies the property's type, enum, range, length and pattern. */
export function acceptsValue(property: PropertyView, value: unknown): boolean {
  if (property.enum && !property.enum.includes(value as EnumValue)) return false;
  switch (property.type) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) && inRange(property, value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) && inRange(property, value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return (
        Array.isArray(value) && value.every((item) => !property.items || acceptsValue(property.items, item))
      );
    case 'object':
      return isRecord(value);
    case 'string': {
      if (typeof value !== 'string') return false;
      if (property.minLength !== undefined && value.length < property.minLength) return false;
      if (property.maxLength !== undefined && value.length > property.maxLength) return false;
      return !property.pattern || (compilePattern(property.pattern)?.test(value) ?? true);
    }
    default:
      return value !== undefined;
  }
}

const UNBOUNDED = Number.MAX_SAFE_INTEGER;

function describeRange(property: PropertyView): string {
  const low = property.minimum ?? property.exclusiveMinimum;
  const high = property.maximum ?? property.exclusiveMaximum;
  const hasLow = low !== undefined && Math.abs(low) < UNBOUNDED;
  const hasHigh = high !== undefined && Math.abs(high) < UNBOUNDED;
  const lowWord = property.minimum === undefined ? 'above' : 'at least';
  const highWord = property.maximum === undefined ? 'below' : 'at most';
  if (hasLow && hasHigh) return ` ${lowWord} ${low} and ${highWord} ${high}`;
  if (hasLow) return ` ${lowWord} ${low}`;
  return hasHigh ? ` ${highWord} ${high}` : '';
}

/** The form a value must take, in words: "pattern ^A\d{5}$", "one of: positive, neutral, negative". */
export function describeForm(property: PropertyView): string {
  if (property.enum) return `one of: ${property.enum.map(String).join(', ')}`;
  if (property.format === 'date') return 'a date as YYYY-MM-DD';
  if (property.format === 'date-time') return 'a date and time as YYYY-MM-DDTHH:MM:SSZ';
  if (property.format === 'email') return 'an email address';
  if (property.format === 'uri' || property.format === 'url') return 'a URL';
  if (property.pattern) return `pattern ${property.pattern}`;
  switch (property.type) {
    case 'integer':
      return `a whole number${describeRange(property)}`;
    case 'number':
      return `a number${describeRange(property)}`;
    case 'boolean':
      return 'yes or no';
    case 'array':
      return property.items ? `a list of ${describeForm(property.items)}` : 'a list';
    default:
      return 'a quoted text';
  }
}
