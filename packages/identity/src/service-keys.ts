import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { z } from 'zod';
import { IdentityError } from './errors.ts';

/** The JWS algorithm of service keys: Ed25519 signatures (RFC 8037). */
export const SERVICE_KEY_ALGORITHM = 'EdDSA';

/** A service's name as a key id names it: `orders`, `supervisor`. */
const SERVICE_NAME = /^[a-z][a-z0-9-]{0,62}$/;

/** A key id: `<service>:<label>`, e.g. `orders:2026-05`. */
const KEY_ID = /^([a-z][a-z0-9-]{0,62}):([A-Za-z0-9._-]{1,64})$/;

/** 32 bytes, base64url without padding: an Ed25519 public or private key in a JWK. */
const KEY_BYTES = /^[A-Za-z0-9_-]{43}$/;

const KeyId = z
  .string({ error: 'kid is required: "<service>:<label>", e.g. "orders:2026-05"' })
  .regex(KEY_ID, 'kid must be "<service>:<label>", e.g. "orders:2026-05" (label: letters, digits or ._-)');

/**
 * A service's public key, as a JWK in the trusted set: Ed25519 (`kty` `OKP`, `crv` `Ed25519`), with a
 * `kid` of the form `<service>:<label>` that binds it to the service whose assertions it verifies.
 */
export const ServicePublicKey = z.object({
  kty: z.literal('OKP', { error: 'kty must be "OKP" (an Ed25519 key)' }),
  crv: z.literal('Ed25519', { error: 'crv must be "Ed25519"' }),
  x: z.string({ error: 'x is required' }).regex(KEY_BYTES, 'x must be 32 bytes in base64url'),
  kid: KeyId,
  alg: z.literal(SERVICE_KEY_ALGORITHM, { error: 'alg must be "EdDSA" when present' }).optional(),
  use: z.literal('sig', { error: 'use must be "sig" when present' }).optional(),
});
export type ServicePublicKey = z.infer<typeof ServicePublicKey>;

/** A service's private key: its {@link ServicePublicKey} with the private part `d`. */
export const ServicePrivateKey = ServicePublicKey.extend({
  d: z
    .string({ error: 'd is required: this must be the private key' })
    .regex(KEY_BYTES, 'd must be 32 bytes in base64url'),
});
export type ServicePrivateKey = z.infer<typeof ServicePrivateKey>;

/** A JSON Web Key Set of service public keys: the keys every service trusts. */
export interface ServiceKeySet {
  keys: ServicePublicKey[];
}

/** The service a key id names (`orders` of `orders:2026-05`), or undefined when it is not a service key id. */
export function serviceOfKeyId(kid: unknown): string | undefined {
  return typeof kid === 'string' ? KEY_ID.exec(kid)?.[1] : undefined;
}

/** The public half of a service's private key, as the trusted set lists it. */
export function publicKeyOf(key: ServicePrivateKey): ServicePublicKey {
  return { kty: 'OKP', crv: 'Ed25519', x: key.x, kid: key.kid, alg: SERVICE_KEY_ALGORITHM, use: 'sig' };
}

/** Whether `x` really is the public half of `d`: a key pasted together from two keys is refused. */
function halvesMatch(key: ServicePrivateKey): boolean {
  try {
    const derived = createPublicKey(
      createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.x, d: key.d }, format: 'jwk' }),
    ).export({ format: 'jwk' });
    return derived.x === key.x;
  } catch {
    return false;
  }
}

/** Each message names its field already ("x must be …"). */
const issues = (error: z.ZodError) => error.issues.map((issue) => issue.message);

/**
 * A service's private key read from its JSON (the `SWITCHBOARD_SERVICE_KEY` value), or every problem
 * with it: not JSON, not an Ed25519 private JWK, a `kid` that does not name `service`, a public
 * part that does not belong to the private one.
 *
 * @example
 * const read = readServiceKey({ json: env.SWITCHBOARD_SERVICE_KEY, service: 'orders' });
 * if (!read.ok) throw new Error(read.problems.join('; '));
 */
export function readServiceKey({
  json,
  service,
}: {
  json: string;
  service: string;
}): { ok: true; key: ServicePrivateKey } | { ok: false; problems: string[] } {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return {
      ok: false,
      problems: ['is not JSON: give the private JWK that "switchboard keys generate" printed'],
    };
  }
  const parsed = ServicePrivateKey.safeParse(value);
  if (!parsed.success) return { ok: false, problems: issues(parsed.error) };
  const key = parsed.data;
  const problems: string[] = [];
  const owner = serviceOfKeyId(key.kid);
  if (owner !== service) {
    problems.push(
      `the key's kid "${key.kid}" names the service "${owner}", not "${service}": give ${service} its own key (switchboard keys generate --service ${service})`,
    );
  }
  if (!halvesMatch(key))
    problems.push('x is not the public half of d: the key is damaged; generate a new one');
  return problems.length > 0 ? { ok: false, problems } : { ok: true, key };
}

/**
 * A trusted key set read from JSON (`{"keys":[...]}`), or every problem with it: each key must be a
 * service public key (no private part), and key ids must be unique.
 */
export function readServiceKeySet(
  value: unknown,
): { ok: true; keySet: ServiceKeySet } | { ok: false; problems: string[] } {
  if (typeof value !== 'object' || value === null || !Array.isArray((value as { keys?: unknown }).keys)) {
    return { ok: false, problems: ['must be a JSON Web Key Set: {"keys": [<public JWK>, ...]}'] };
  }
  const problems: string[] = [];
  const keys: ServicePublicKey[] = [];
  const seen = new Set<string>();
  for (const [index, entry] of ((value as { keys: unknown[] }).keys ?? []).entries()) {
    if (typeof entry === 'object' && entry !== null && 'd' in entry) {
      problems.push(
        `keys[${index}] is a private key: list only public keys (without "d") in the trusted set`,
      );
      continue;
    }
    const parsed = ServicePublicKey.safeParse(entry);
    if (!parsed.success) {
      problems.push(...issues(parsed.error).map((problem) => `keys[${index}]: ${problem}`));
      continue;
    }
    if (seen.has(parsed.data.kid)) {
      problems.push(
        `keys[${index}]: the kid "${parsed.data.kid}" is listed twice; give each key its own label`,
      );
    }
    seen.add(parsed.data.kid);
    keys.push({ ...parsed.data, alg: SERVICE_KEY_ALGORITHM, use: 'sig' });
  }
  if (keys.length === 0 && problems.length === 0)
    problems.push('lists no keys: add each service’s public key');
  return problems.length > 0 ? { ok: false, problems } : { ok: true, keySet: { keys } };
}

/**
 * Whether a trusted set verifies a service's own key: it must list the key's public half under the
 * key's kid, or peers (which trust the same set) refuse everything the service signs.
 */
export function ownKeyProblem(keySet: ServiceKeySet, key: ServicePrivateKey): string | undefined {
  const listed = keySet.keys.find((entry) => entry.kid === key.kid);
  if (!listed) {
    return `does not list this service's own public key (kid "${key.kid}"): add it, or peers will refuse every request this service signs`;
  }
  if (listed.x !== key.x) {
    return `lists the kid "${key.kid}" with another public key than this service's: replace it with the public half of SWITCHBOARD_SERVICE_KEY`;
  }
  return undefined;
}

/**
 * Makes a new key for a service: its private JWK (for `SWITCHBOARD_SERVICE_KEY`, a secret) and the
 * public JWK to add to the trusted set (`SWITCHBOARD_TRUSTED_KEYS`). `label` tells its keys apart
 * (default: the date, e.g. `2026-05-14`); rotate by making a key with a new label.
 *
 * @example
 * const { privateKey, publicKey } = generateServiceKey({ service: 'orders' });
 * // privateKey.kid === 'orders:2026-05-14'
 */
export function generateServiceKey({
  service,
  label = new Date().toISOString().slice(0, 10),
}: {
  service: string;
  label?: string;
}): { privateKey: ServicePrivateKey; publicKey: ServicePublicKey } {
  if (!SERVICE_NAME.test(service)) {
    throw new IdentityError('INVALID_OPTIONS', {
      message: `"${service}" is not a service name: use lower-case letters, digits or "-", starting with a letter (e.g. "orders").`,
    });
  }
  const kid = `${service}:${label}`;
  if (!KEY_ID.test(kid)) {
    throw new IdentityError('INVALID_OPTIONS', {
      message: `"${label}" is not a key label: use at most 64 letters, digits or ._- (e.g. "2026-05").`,
    });
  }
  const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
  const privateKey: ServicePrivateKey = {
    kty: 'OKP',
    crv: 'Ed25519',
    x: String(jwk.x),
    d: String(jwk.d),
    kid,
    alg: SERVICE_KEY_ALGORITHM,
    use: 'sig',
  };
  return { privateKey, publicKey: publicKeyOf(privateKey) };
}
