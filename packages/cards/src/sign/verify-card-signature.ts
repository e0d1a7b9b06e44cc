import { base64url, decodeProtectedHeader, errors, type FlattenedJWSInput, flattenedVerify } from 'jose';
import { detectCardVersion, isObject, type JsonObject, objects } from '../json/card-json.ts';
import { type CardCanonicalization, canonicalForms, coversSecurity } from './card-canonical.ts';
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

/**
 * What {@link checkCardSignatures} found of one signature: valid with the form it is over
 * (`canonicalization`) and whether that form includes the card's security requirements
 * (`coversSecurity`), or invalid and why.
 */
export type SignatureFinding =
  | { status: 'valid'; kid: string; canonicalization: CardCanonicalization; coversSecurity: boolean }
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

async function verifyOne(
  entry: Record<string, unknown>,
  payloads: readonly [CardCanonicalization, string][],
  keys: CardKeys,
): Promise<SignatureFinding> {
  const invalid = (reason: CardSignatureProblem, message: string, kid?: string): SignatureFinding => ({
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
  const jws = (payload: string): FlattenedJWSInput => ({
    payload: base64url.encode(payload),
    protected: entry.protected as string,
    signature: entry.signature as string,
    ...(isObject(entry.header) ? { header: entry.header } : {}),
  });
  try {
    let mismatch: unknown;
    // The spec names no header for the form a signature is over: each is tried.
    for (const [canonicalization, payload] of payloads) {
      try {
        await flattenedVerify(jws(payload), lookingUp(keys, alg), { algorithms: ALGORITHMS });
        return { status: 'valid', kid, canonicalization, coversSecurity: false };
      } catch (error) {
        if (!(error instanceof errors.JWSSignatureVerificationFailed)) throw error;
        mismatch = error;
      }
    }
    throw mismatch ?? new errors.JWSSignatureVerificationFailed();
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
 * Every signature of a card checked against the keys the caller trusts (A2A §8.4), each against
 * both forms a signature can be over (`CARD_CANONICALIZATIONS`): the RFC 8785 JCS of the card as
 * given, without `signatures`, and the SDK's canonical v1.0 form of it. Undefined when the card is
 * not a JSON object. Never throws.
 *
 * @example
 * for (const finding of (await checkCardSignatures({ card, keys })) ?? []) console.log(finding);
 */
export async function checkCardSignatures({
  card,
  keys,
}: {
  card: unknown;
  keys: CardKeys;
}): Promise<SignatureFinding[] | undefined> {
  if (!isObject(card)) return undefined;
  const forms = canonicalForms(card);
  const payloads = Object.entries(forms).filter(
    (entry): entry is [CardCanonicalization, string] => entry[1] !== undefined,
  );
  const findings: SignatureFinding[] = [];
  for (const entry of objects(card.signatures)) {
    const finding = await verifyOne(entry, payloads, keys);
    findings.push(
      finding.status === 'valid'
        ? {
            ...finding,
            coversSecurity: coversSecurity(
              card,
              finding.canonicalization,
              forms[finding.canonicalization] ?? '{}',
            ),
          }
        : finding,
    );
  }
  return findings;
}

/**
 * Checks a card's signatures (A2A §8.4) against the keys the caller trusts: a signature counts when
 * a key `keys` finds for its `kid` signed the RFC 8785 JCS of the card as given (without
 * `signatures`), or the SDK's canonical v1.0 form of it (`canonicalizeAgentCard`: what signers
 * before both forms, and other SDK users, sign). Valid when any signature verifies; else the worst
 * reason found (bad signature before untrusted key before malformed). Never trusts a key the card
 * or the signature points to. Never throws. {@link checkCardSignatures} says, per signature, which
 * form it is over and whether that covers the security requirements.
 *
 * @example
 * const result = await verifyCardSignature({ card: json, keys: await trustedCardKeys({ file }) });
 * if (result.status !== 'valid') logger.warn({ result }, 'peer card not signed by a trusted key');
 */
export async function verifyCardSignature({
  card,
  keys,
}: {
  /** The card as JSON, in the shape it was served (v1.0, hybrid or v0.3). */
  card: unknown;
  keys: CardKeys;
}): Promise<CardSignatureResult> {
  const findings = await checkCardSignatures({ card, keys });
  if (!findings) return { status: 'invalid', reason: 'malformed', message: 'the card is not a JSON object' };
  if (findings.length === 0) return { status: 'unsigned' };
  const valid = findings.find((finding) => finding.status === 'valid');
  if (valid) return { status: 'valid', kid: valid.kid };
  const rank = (finding: SignatureFinding) =>
    finding.status === 'invalid' ? RANK.indexOf(finding.reason) : -1;
  const [worst] = [...findings].sort((a, b) => rank(a) - rank(b));
  if (
    worst?.status === 'invalid' &&
    worst.reason === 'bad-signature' &&
    detectCardVersion(card as JsonObject) === '0.3'
  ) {
    return {
      ...worst,
      message: `${worst.message}. Cards signed before each shape had its own signatures sign only the v1.0 card: fetch that one (A2A-Version: 1.0) to verify them`,
    };
  }
  return worst as CardSignatureResult;
}
