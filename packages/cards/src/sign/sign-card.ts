import { AgentCard } from '@a2a-js/sdk';
import { FlattenedSign, importJWK, type JWK } from 'jose';
import { CARD_SHAPES, type CardShape, renderAgentCard, SIGNED_SHAPE_HEADER } from '../convert/render-card.ts';
import { CardsError } from '../errors.ts';
import { type JsonObject, objects } from '../json/card-json.ts';
import { canonicalForms, sdkFormSignsSecurity } from './card-canonical.ts';

/** Signs a v1.0 card: returns it with its signatures for every shape it is served in added to `signatures`. */
export type CardSigner = (card: AgentCard) => Promise<AgentCard>;

/** Options of {@link cardSigner}. */
export interface CardSignerOptions {
  /** The private key, a JWK with its `kid` (e.g. a service key from `switchboard keys generate`). */
  key: JWK;
  /** The JWS algorithm (default: the key's `alg`, else `EdDSA` for an Ed25519 key, `ES256` for P-256). */
  alg?: string;
}

const algorithmOf = (key: JWK): string | undefined =>
  key.alg ??
  (key.kty === 'OKP' && key.crv === 'Ed25519'
    ? 'EdDSA'
    : key.kty === 'EC' && key.crv === 'P-256'
      ? 'ES256'
      : undefined);

/**
 * A signer of agent cards (A2A §8.4): for every shape the card is served in (v1.0, hybrid, v0.3:
 * what `renderAgentCard` makes of it), JWS (flattened), each with `alg`, `typ` `JOSE` and the key's
 * `kid` in its protected header: first one over the RFC 8785 JCS of that shape exactly as served
 * without `signatures` (so a strict verifier accepts it, and it covers every field, the security
 * requirements included), then one over the SDK's canonical form of it (`canonicalizeAgentCard`, so
 * the SDK's `verifyAgentCardSignature` accepts it; that form drops empty values and reads the v1.0
 * fields only) where that form covers the card's security requirements (`sdkFormSignsSecurity`: not
 * for the v0.3 shape). The signatures sit in the v1.0 card, each marked with the shape it is for;
 * `renderAgentCard` serves each shape its own; where both forms are the same bytes (the v1.0 shape of
 * a card without empty values), one signature serves.
 * The key's public half must be in the verifier's trusted keys under the same `kid`.
 *
 * @example
 * const sign = cardSigner({ key: serviceKey });
 * const signed = await sign(buildAgentCard({ ... }));
 */
export function cardSigner({ key, alg = algorithmOf(key) }: CardSignerOptions): CardSigner {
  const problems: string[] = [];
  if (typeof key?.kid !== 'string' || key.kid === '')
    problems.push('key must have a kid, which verifiers look it up by');
  if (typeof key?.d !== 'string') problems.push('key must be a private JWK (with "d")');
  if (!alg) problems.push('give alg: the key names none and is neither Ed25519 nor P-256');
  if (problems.length > 0) {
    throw new CardsError('INVALID_OPTIONS', { message: `cardSigner: ${problems.join('; ')}.` });
  }
  const header = { alg: alg as string, kid: key.kid as string, typ: 'JOSE' };
  let privateKey: ReturnType<typeof importJWK> | undefined;
  const sign = async (payload: string, shape: CardShape): Promise<JsonObject> => {
    privateKey ??= importJWK(key, header.alg);
    const jws = await new FlattenedSign(new TextEncoder().encode(payload))
      .setProtectedHeader(header)
      .sign(await privateKey);
    return { protected: jws.protected, signature: jws.signature, header: { [SIGNED_SHAPE_HEADER]: shape } };
  };
  return async (card) => {
    const made: JsonObject[] = [];
    for (const shape of CARD_SHAPES) {
      let served: JsonObject;
      try {
        served = renderAgentCard({ card, version: shape }).card;
      } catch {
        continue; // No interface a v0.3 client could use: that shape is not served.
      }
      const forms = canonicalForms(served);
      made.push(await sign(forms.served, shape));
      // Where the SDK's form is the same bytes (a card without empty values), one signature is both;
      // and none over a form that would not cover the card's security requirements.
      if (forms.sdk !== undefined && forms.sdk !== forms.served && sdkFormSignsSecurity(served, forms.sdk))
        made.push(await sign(forms.sdk, shape));
    }
    const json = AgentCard.toJSON(card) as JsonObject;
    return AgentCard.fromJSON({ ...json, signatures: [...objects(json.signatures), ...made] });
  };
}
