import { readFile } from 'node:fs/promises';
import { createLocalJWKSet, createRemoteJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import { CardsError } from '../errors.ts';

/**
 * The keys a card's signature may be made with, as jose's key lookup: given the JWS protected
 * header, the trusted key its `kid` names, or a throw. Make one with {@link trustedCardKeys}, or
 * pass any lookup of your own (e.g. a service's trusted keys that are re-read as they change).
 */
export type CardKeys = JWTVerifyGetKey;

/** Where the trusted keys come from: a JWKS given whole, a JWKS file, or a JWKS served at a URL. */
export type TrustedCardKeysSource = { jwks: JSONWebKeySet } | { file: string } | { url: string };

const isKeySet = (value: unknown): value is JSONWebKeySet =>
  typeof value === 'object' &&
  value !== null &&
  Array.isArray((value as { keys?: unknown }).keys) &&
  (value as { keys: unknown[] }).keys.every(
    (key) => typeof key === 'object' && key !== null && !('d' in key),
  );

/**
 * The keys a user trusts to sign cards, as a {@link CardKeys} lookup over a JWKS (jose's
 * `createLocalJWKSet`, or `createRemoteJWKSet` for a URL, fetched when first needed). Never a key
 * the card or its signature points to (`jku`, `jwk`): only what is given here counts. A file is read
 * now; throws `INVALID_OPTIONS` when it cannot be read or is not a set of public keys.
 *
 * @example
 * const keys = await trustedCardKeys({ file: './trusted-keys.json' });
 * const result = await verifyCardSignature({ card, keys });
 */
export async function trustedCardKeys(source: TrustedCardKeysSource): Promise<CardKeys> {
  if ('url' in source) {
    const url = URL.parse(source.url);
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
      throw new CardsError('INVALID_OPTIONS', {
        message: `trusted keys: "${source.url}" is not an http(s) URL of a JWKS`,
      });
    }
    return createRemoteJWKSet(url, { timeoutDuration: 5_000 });
  }
  let jwks: unknown;
  if ('file' in source) {
    try {
      jwks = JSON.parse(await readFile(source.file, 'utf8'));
    } catch (cause) {
      throw new CardsError('INVALID_OPTIONS', {
        message: `trusted keys: ${source.file} cannot be read as JSON (${cause instanceof Error ? cause.message : String(cause)}); give a JWKS file, {"keys":[...]}`,
        cause,
      });
    }
  } else jwks = source.jwks;
  if (!isKeySet(jwks)) {
    throw new CardsError('INVALID_OPTIONS', {
      message: `trusted keys${'file' in source ? ` in ${source.file}` : ''} must be a JWKS of public keys: {"keys":[{"kty":...,"kid":...}, ...]} without private parts ("d")`,
    });
  }
  return createLocalJWKSet(jwks);
}
