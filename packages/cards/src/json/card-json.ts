/** A JSON object, as read from a card file or an HTTP body. */
export type JsonObject = Record<string, unknown>;

/**
 * Which shape a card has. `hybrid`: a complete v1.0 card that is also a complete v0.3 card, read
 * as both (see {@link detectCardVersion}).
 */
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

/** Fields that exist in v1.0 cards only (at the top level). */
export const V1_ONLY_FIELDS = ['supportedInterfaces', 'securityRequirements'] as const;

const isV03Version = (value: unknown) => typeof value === 'string' && /^0\.3(\.\d+)?$/.test(value);
const isV1Version = (value: unknown) => typeof value === 'string' && /^1\.\d+(\.\d+)?$/.test(value);

/**
 * Detects the shape of a card from what it is, not from any one field:
 * - `hybrid`: a complete v1.0 card (`supportedInterfaces`) that is also a complete v0.3 card
 *   (`url` and `protocolVersion` "0.3.x"), served so readers of either version can use it;
 * - `1.0`: `supportedInterfaces`, or, without a `url`, a `protocolVersion` "1.x" or v1.0-only fields
 *   (`securityRequirements`, `capabilities.extendedAgentCard`); stray v0.3 fields are its problems;
 * - `0.3`: a `url` without `supportedInterfaces`, or other v0.3-only fields; stray v1.0 fields are
 *   its problems;
 * - `unknown`: none of these (not an A2A Agent Card).
 */
export function detectCardVersion(card: unknown): CardVersion {
  if (!isObject(card)) return 'unknown';
  if ('supportedInterfaces' in card) {
    return typeof card.url === 'string' && isV03Version(card.protocolVersion) ? 'hybrid' : '1.0';
  }
  if (card.url !== undefined || isV03Version(card.protocolVersion)) return '0.3';
  const capabilities = isObject(card.capabilities) ? card.capabilities : {};
  if (
    isV1Version(card.protocolVersion) ||
    card.securityRequirements !== undefined ||
    capabilities.extendedAgentCard !== undefined
  ) {
    return '1.0';
  }
  return V03_ONLY_FIELDS.some((field) => card[field] !== undefined) ? '0.3' : 'unknown';
}

/** How a card's version reads in a sentence: `v1.0 card`, `hybrid card (...)`, `not an A2A card`. */
export function cardVersionLabel(version: CardVersion): string {
  switch (version) {
    case '1.0':
    case '0.3':
      return `v${version} card`;
    case 'hybrid':
      return 'hybrid card (read as v1.0 and as v0.3)';
    default:
      return 'not an A2A card';
  }
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
