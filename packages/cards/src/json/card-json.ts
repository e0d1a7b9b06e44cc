/** A JSON object, as read from a card file or an HTTP body. */
export type JsonObject = Record<string, unknown>;

/** Which shape a card has. `hybrid`: v1.0 `supportedInterfaces` next to v0.3 fields. */
export type CardVersion = '1.0' | '0.3' | 'hybrid' | 'unknown';

/** Something a conversion could not carry over exactly, with where it was. */
export interface CardWarning {
  /** JSONPath of the field in the input card, e.g. `$.securitySchemes.oauth.flows.deviceCode`. */
  path: string;
  message: string;
}

/** The result of a conversion: the card in the other shape and every lossy step. */
export interface ConvertedCard {
  card: JsonObject;
  warnings: CardWarning[];
}

/** Fields that exist in v0.3 cards only. */
export const V03_ONLY_FIELDS = [
  'protocolVersion',
  'url',
  'preferredTransport',
  'additionalInterfaces',
  'supportsAuthenticatedExtendedCard',
  'security',
] as const;

/** True for a non-null, non-array object. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value as an array of objects (anything else is read as empty). */
export function objects(value: unknown): JsonObject[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

/** The value as an array of strings (anything else is read as empty). */
export function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** A JSONPath member step: `.name`, or `["odd name"]` when the key is not an identifier. */
export function member(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** Detects the shape of a card from its fields. */
export function detectCardVersion(card: unknown): CardVersion {
  if (!isObject(card)) return 'unknown';
  const v1 = Array.isArray(card.supportedInterfaces);
  const v03 = V03_ONLY_FIELDS.some((field) => card[field] !== undefined);
  if (v1 && v03) return 'hybrid';
  if (v1) return '1.0';
  if (v03) return '0.3';
  return 'unknown';
}

/** Copies the listed fields that are present, leaving out absent and empty ones. */
export function pick(source: JsonObject, fields: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const field of fields) {
    const value = source[field];
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value) && value.length === 0) continue;
    out[field] = value;
  }
  return out;
}
