import { type AgentCard, canonicalizeAgentCard } from '@a2a-js/sdk';
import { isObject, type JsonObject } from '../json/card-json.ts';

/**
 * The forms a card signature can be over (A2A §8.4.1): `served`, the RFC 8785 JCS of the card
 * exactly as served, without `signatures` (what a strict verifier such as Mastra's computes); `sdk`,
 * the `@a2a-js/sdk` canonical v1.0 form (`canonicalizeAgentCard`: the card's v1.0 fields through
 * ProtoJSON, every empty value dropped), which its `verifyAgentCardSignature` computes. The spec
 * gives no header to name the form, so a verifier tries both.
 */
export const CARD_CANONICALIZATIONS = {
  served: 'RFC 8785 of the card as served',
  sdk: "the SDK's canonical v1.0 form",
} as const;

/** A form a card signature can be over; see {@link CARD_CANONICALIZATIONS}. */
export type CardCanonicalization = keyof typeof CARD_CANONICALIZATIONS;

/** RFC 8785: ECMAScript serialisation of primitives, object keys sorted by UTF-16 code units. */
function jcs(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(jcs).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${jcs(value[key])}`).join(',')}}`;
  }
  if (typeof value === 'number' && !Number.isFinite(value))
    throw new TypeError('JCS: a number must be finite');
  return JSON.stringify(value);
}

/**
 * The bytes each form signs for a card as JSON (its `signatures` left out); `sdk` is undefined when
 * the SDK cannot read the card.
 */
export function canonicalForms(card: JsonObject): { served: string; sdk: string | undefined } {
  const { signatures: _signatures, ...unsigned } = card;
  let sdk: string | undefined;
  try {
    sdk = canonicalizeAgentCard(unsigned as unknown as AgentCard);
  } catch {
    sdk = undefined;
  }
  return { served: jcs(unsigned), sdk };
}

/**
 * Whether a signature over the SDK's form is worth publishing for a card: when it signs the card's
 * security requirements. The SDK reads the v1.0 fields only, so its form of a v0.3 card (whose
 * requirements are `security`) covers none of them, and such a card gets no SDK-form signature; a
 * hybrid card's is published for its v1.0 `securityRequirements` (its v0.3 `security` is covered by
 * the served-form signature). A card that declares no requirements has none to cover.
 */
export function sdkFormSignsSecurity(card: JsonObject, payload: string): boolean {
  const declares = (key: string) => Array.isArray(card[key]) && (card[key] as unknown[]).length > 0;
  if (declares('securityRequirements')) return 'securityRequirements' in (JSON.parse(payload) as JsonObject);
  return !declares('security');
}

/**
 * Whether what a form signs includes the card's security requirements (`securityRequirements`, and
 * the v0.3 `security`): always for `served`; for `sdk` only when they are in it. The SDK's form has no
 * v0.3 fields; and an SDK without the fix of patches/upstream/card-canonical-map-entries.md drops
 * `[{"schemes":{"bearer":{}}}]` as empty (docs/conformance.md).
 */
export function coversSecurity(card: JsonObject, form: CardCanonicalization, payload: string): boolean {
  if (form === 'served') return true;
  const declared = ['securityRequirements', 'security'].filter(
    (key) => Array.isArray(card[key]) && (card[key] as unknown[]).length > 0,
  );
  if (declared.length === 0) return true;
  const signed = JSON.parse(payload) as JsonObject;
  return declared.every((key) => key in signed);
}
