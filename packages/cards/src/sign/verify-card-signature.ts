import { type AgentCard, canonicalizeAgentCard } from '@a2a-js/sdk';
import { base64url, decodeProtectedHeader, errors, type FlattenedJWSInput, flattenedVerify } from 'jose';
import { detectCardVersion, isObject, objects } from '../json/card-json.ts';
import type { CardKeys } from './card-keys.ts';

/** Why a signed card was not accepted. */
export type CardSignatureProblem =
  /** No trusted key has the signature's `kid` (or several do). */
  | 'untrusted-key'
  /** A trusted key has its `kid`, but the signature does not verify: the card changed after signing, or another key signed it. */
  | 'bad-signature'
  /** The signature is not a JWS with `alg`, `kid` and `typ` in its protected header, or uses an algorithm not allowed. */
  | 'malformed'
  /** The trusted keys could not be fetched: nothing was decided about the card. */
  | 'keys-unavailable';

/** What {@link verifyCardSignature} found: callers decide what to do with an unsigned or invalid card. */
export type CardSignatureResult =
  | { status: 'valid'; kid: string }
  | { status: 'unsigned' }
  | { status: 'invalid'; reason: CardSignatureProblem; kid?: string; message: string };

/** Asymmetric JWS algorithms only: a public key can never be taken as an HMAC secret. */
const ALGORITHMS = [
  'EdDSA',
  'Ed25519',
  'ES256',
  'ES384',
  'ES512',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
];

/** Worst first: the reason reported when no signature verifies. */
const RANK: readonly CardSignatureProblem[] = [
  'bad-signature',
  'untrusted-key',
  'keys-unavailable',
  'malformed',
];

type Outcome = CardSignatureResult & { status: 'valid' | 'invalid' };

/** The trusted keys could not be read (a file gone, a URL down): said apart from a key not found. */
class KeysUnavailable extends Error {}

/** The lookup, with its failures to read the keys told apart from a kid it does not know. */
const lookingUp =
  (keys: CardKeys, alg: string): Parameters<typeof flattenedVerify>[1] =>
  async (protectedHeader, token) => {
    try {
      // The key is looked up by the protected header alone: nothing unprotected steers it, and a
      // key the signature carries or points to (jwk, jku, x5u) is never used.
      return await keys({ ...protectedHeader, alg }, { ...token, header: {} });
    } catch (error) {
      if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys)
        throw error;
      throw new KeysUnavailable(error instanceof Error ? error.message : String(error), { cause: error });
    }
  };

async function verifyOne(entry: Record<string, unknown>, payload: string, keys: CardKeys): Promise<Outcome> {
  const invalid = (reason: CardSignatureProblem, message: string, kid?: string): Outcome => ({
    status: 'invalid',
    reason,
    message,
    ...(kid ? { kid } : {}),
  });
  if (typeof entry.protected !== 'string' || typeof entry.signature !== 'string') {
    return invalid('malformed', 'a signature lacks its "protected" header or its "signature"');
  }
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader({ protected: entry.protected });
  } catch {
    return invalid('malformed', "a signature's protected header is not base64url JSON");
  }
  const { kid, alg, typ } = header;
  if (typeof kid !== 'string' || !kid || typeof alg !== 'string' || typeof typ !== 'string') {
    return invalid('malformed', 'a signature\'s protected header must name "alg", "kid" and "typ"');
  }
  const jws: FlattenedJWSInput = {
    payload,
    protected: entry.protected,
    signature: entry.signature,
    ...(isObject(entry.header) ? { header: entry.header } : {}),
  };
  try {
    await flattenedVerify(jws, lookingUp(keys, alg), { algorithms: ALGORITHMS });
    return { status: 'valid', kid };
  } catch (error) {
    if (error instanceof errors.JWKSNoMatchingKey)
      return invalid('untrusted-key', `no trusted key has the kid "${kid}"`, kid);
    if (error instanceof errors.JWKSMultipleMatchingKeys) {
      return invalid(
        'untrusted-key',
        `several trusted keys have the kid "${kid}"; give each key its own kid`,
        kid,
      );
    }
    if (error instanceof errors.JWSSignatureVerificationFailed) {
      return invalid(
        'bad-signature',
        `the signature by "${kid}" does not match the card: it was changed after signing, or another key signed it`,
        kid,
      );
    }
    if (error instanceof errors.JOSEAlgNotAllowed)
      return invalid('malformed', `the algorithm "${alg}" is not allowed for card signatures`, kid);
    if (error instanceof KeysUnavailable) {
      return invalid('keys-unavailable', `the trusted keys could not be read (${error.message})`, kid);
    }
    return invalid(
      'malformed',
      `the signature by "${kid}" cannot be checked (${error instanceof Error ? error.message : String(error)})`,
      kid,
    );
  }
}

/**
 * Checks a card's signatures (A2A §8.4) against the keys the caller trusts: the JCS form of the
 * card's v1.0 fields (the SDK's `canonicalizeAgentCard`, so a hybrid card verifies as its v1.0 part)
 * must be signed by a key `keys` finds for the signature's `kid`. Valid when any signature verifies;
 * else the worst reason found (bad signature before untrusted key before malformed). Never trusts a
 * key the card or the signature points to. Never throws.
 *
 * @example
 * const result = await verifyCardSignature({ card: json, keys: await trustedCardKeys({ file }) });
 * if (result.status !== 'valid') logger.warn({ result }, 'peer card not signed by a trusted key');
 */
export async function verifyCardSignature({
  card,
  keys,
}: {
  /** The card as JSON: v1.0 or hybrid (a v0.3 card's signatures sign its v1.0 form). */
  card: unknown;
  keys: CardKeys;
}): Promise<CardSignatureResult> {
  if (!isObject(card))
    return { status: 'invalid', reason: 'malformed', message: 'the card is not a JSON object' };
  const signatures = objects(card.signatures);
  if (signatures.length === 0) return { status: 'unsigned' };
  let payload: string;
  try {
    payload = base64url.encode(canonicalizeAgentCard(card as unknown as AgentCard));
  } catch {
    return {
      status: 'invalid',
      reason: 'malformed',
      message: 'the card cannot be canonicalised: it is not an agent card',
    };
  }
  const outcomes: Outcome[] = [];
  for (const entry of signatures) {
    const outcome = await verifyOne(entry, payload, keys);
    if (outcome.status === 'valid') return outcome;
    outcomes.push(outcome);
  }
  const rank = (outcome: Outcome) => (outcome.status === 'invalid' ? RANK.indexOf(outcome.reason) : -1);
  const [worst] = outcomes.sort((a, b) => rank(a) - rank(b));
  if (worst?.status === 'invalid' && worst.reason === 'bad-signature' && detectCardVersion(card) === '0.3') {
    return {
      ...worst,
      message: `${worst.message}. This is the v0.3 card; its signatures sign the v1.0 card: fetch that one (A2A-Version: 1.0) to verify them`,
    };
  }
  return worst as Outcome;
}
