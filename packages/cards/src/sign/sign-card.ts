import { AgentCard, generateAgentCardSignature } from '@a2a-js/sdk';
import type { JWK } from 'jose';
import { CardsError } from '../errors.ts';

/** Signs a v1.0 card: returns it with one more entry in `signatures`. */
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
 * A signer of agent cards (A2A §8.4): a JWS (flattened) over the JCS form of the card's v1.0 fields,
 * its protected header naming `alg`, `typ` `JOSE` and the key's `kid`, made by the SDK's
 * `generateAgentCardSignature`. Only the v1.0 fields are signed: sign the v1.0 card, then render it
 * in any shape (`renderAgentCard` keeps the signatures). The key's public half must be in the
 * verifier's trusted keys under the same `kid`.
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
  const sign = generateAgentCardSignature(key, { alg, kid: key.kid, typ: 'JOSE' });
  // The SDK canonicalises what it is given as ProtoJSON: give it the card's JSON, as verifiers see it.
  return async (card) => AgentCard.fromJSON(await sign(AgentCard.toJSON(card) as unknown as AgentCard));
}
