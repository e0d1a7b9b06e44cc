import { AgentCard } from '@a2a-js/sdk';
import { CardsError } from '../errors.ts';
import { type ConvertedCard, isObject, type JsonObject, objects, pick } from '../json/card-json.ts';
import { toV03 } from './to-v03.ts';

/** The card shapes Switchboard publishes, by A2A protocol version (Major.Minor). */
export const CARD_VERSIONS = ['1.0', '0.3'] as const;

/** A card shape Switchboard publishes for a reader that names its version. */
export type PublishedCardVersion = (typeof CARD_VERSIONS)[number];

/**
 * Every card shape Switchboard renders: a version's own, or `hybrid`, the v1.0 card with the v0.3
 * fields added, for readers that send no `A2A-Version`.
 */
export const CARD_SHAPES = ['1.0', '0.3', 'hybrid'] as const;

/** A card shape Switchboard renders; see {@link CARD_SHAPES}. */
export type CardShape = (typeof CARD_SHAPES)[number];

/**
 * The v0.3 fields a hybrid card carries next to the v1.0 ones: what a v0.3 reader needs to reach
 * the agent (`url`, `preferredTransport`, `additionalInterfaces`), to know its version, and its
 * security requirements (`security`, which v1.0 calls `securityRequirements`).
 */
const HYBRID_V03_FIELDS = [
  'protocolVersion',
  'url',
  'preferredTransport',
  'additionalInterfaces',
  'security',
];

/**
 * The unprotected JWS header member that says which shape a signature of the card was made for
 * (`cardSigner` signs every shape as it is served). Only the card held in memory carries it:
 * {@link renderAgentCard} keeps each shape's own signatures, without it, and drops the others.
 */
export const SIGNED_SHAPE_HEADER = 'switchboard-card-shape';

/**
 * The card's signatures for one shape: those made for it (marked {@link SIGNED_SHAPE_HEADER}),
 * served without the mark, and any signature without a mark (made by another signer), unchanged.
 */
function signaturesFor(json: JsonObject, version: CardShape): JsonObject[] {
  return objects(json.signatures).flatMap((entry) => {
    if (!isObject(entry.header) || !(SIGNED_SHAPE_HEADER in entry.header)) return [entry];
    if (entry.header[SIGNED_SHAPE_HEADER] !== version) return [];
    const { [SIGNED_SHAPE_HEADER]: _shape, ...header } = entry.header;
    const { header: _marked, ...signature } = entry;
    return [Object.keys(header).length > 0 ? { ...signature, header } : signature];
  });
}

/** The shape as served: its own signatures (see {@link signaturesFor}) in place of the card's. */
function withSignatures(json: JsonObject, converted: ConvertedCard, version: CardShape): ConvertedCard {
  const { signatures: _all, ...card } = converted.card;
  const signatures = signaturesFor(json, version);
  return {
    card: signatures.length > 0 ? { ...card, signatures } : card,
    warnings: converted.warnings.filter((warning) => warning.path !== '$.signatures'),
  };
}

/**
 * The JSON a reader gets for a card: `1.0` is the ProtoJSON of the card (`AgentCard.toJSON`, never
 * `JSON.stringify` of the SDK object); `0.3` is that translated by {@link toV03}, with its
 * warnings; `hybrid` is the v1.0 JSON with the v0.3 fields a v0.3 reader needs added
 * (`protocolVersion` "0.3.0", `url`, `preferredTransport`, `additionalInterfaces`, `security`, and
 * each security scheme in its v0.3 form beside the v1.0 one), so both a v1.0 reader and a v0.3 one
 * can use it (a strict v1.0 schema check refuses the extra
 * fields). Each shape carries the signatures `cardSigner` made for it (over exactly that shape),
 * and any other signature of the card. The same function serves the well-known card and
 * writes the committed card files, so both always agree. Throws for `0.3` when no interface is left
 * that a v0.3 client could use; `hybrid` is then the v1.0 card.
 *
 * @example
 * const { card: v03, warnings } = renderAgentCard({ card, version: '0.3' });
 * const { card: hybrid } = renderAgentCard({ card, version: 'hybrid' });
 */
export function renderAgentCard({ card, version }: { card: AgentCard; version: CardShape }): ConvertedCard {
  const json = AgentCard.toJSON(card);
  if (!isObject(json)) {
    throw new CardsError('INVALID_OPTIONS', {
      message: 'card must be a v1.0 AgentCard, e.g. from buildAgentCard(...)',
    });
  }
  if (version === '1.0') return withSignatures(json, { card: json, warnings: [] }, '1.0');
  if (version === '0.3') return withSignatures(json, toV03(json), '0.3');
  let v03: ConvertedCard;
  try {
    v03 = toV03(json);
  } catch {
    // No interface a v0.3 client could use: the v1.0 card is all there is to say.
    return withSignatures(json, { card: json, warnings: [] }, '1.0');
  }
  return withSignatures(
    json,
    {
      card: {
        ...json,
        ...pick(v03.card, HYBRID_V03_FIELDS),
        ...bothSchemeForms(json.securitySchemes, v03.card.securitySchemes),
      },
      warnings: v03.warnings,
    },
    'hybrid',
  );
}

/**
 * Each security scheme in both versions' forms at once: the v1.0 one (`httpAuthSecurityScheme`, …)
 * and the v0.3 one (`type`, `scheme`, …) use different keys, so one object holds both and a reader
 * of either version, even one that validates schemes, finds its own.
 */
function bothSchemeForms(v10: unknown, v03: unknown): { securitySchemes?: JsonObject } {
  if (!isObject(v10) || !isObject(v03)) return {};
  const merged: JsonObject = {};
  for (const [name, scheme] of Object.entries(v10)) {
    const legacy = v03[name];
    merged[name] = isObject(scheme) && isObject(legacy) ? { ...legacy, ...scheme } : scheme;
  }
  return { securitySchemes: merged };
}
