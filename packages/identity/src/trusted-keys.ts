import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type Logger, stderrLogger } from '@switchboard/agent';
import {
  type CompactJWSHeaderParameters,
  createRemoteJWKSet,
  errors,
  type JWK,
  type JWTVerifyGetKey,
} from 'jose';
import { IdentityError } from './errors.ts';
import { readServiceKeySet, type ServiceKeySet } from './service-keys.ts';

/**
 * Where the trusted service keys come from (`SWITCHBOARD_TRUSTED_KEYS`):
 * - `inline`: a JSON Web Key Set given whole, fixed for the life of the process;
 * - `file`: a JWKS file, read again when an assertion names a key it lacks (at most every few
 *   seconds) and once a minute, so a key added or removed there counts without a restart;
 * - `url`: a JWKS served over https (http for a loopback host only), fetched the same way.
 */
export type TrustedKeysSource =
  | { kind: 'inline'; keySet: ServiceKeySet }
  | { kind: 'file'; path: string }
  | { kind: 'url'; url: string };

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Reads a `SWITCHBOARD_TRUSTED_KEYS` value: inline JSON (`{"keys":[...]}`), `file:/path/to/jwks.json`,
 * or an `https://` URL; or says what is wrong with it.
 *
 * @example
 * const read = readTrustedKeysSource('file:/etc/switchboard/trusted-keys.json');
 */
export function readTrustedKeysSource(
  value: string,
): { ok: true; source: TrustedKeysSource } | { ok: false; problems: string[] } {
  const text = value.trim();
  if (text.startsWith('file:')) {
    const path = text.startsWith('file://') ? fileURLToPath(text) : text.slice('file:'.length);
    return path
      ? { ok: true, source: { kind: 'file', path } }
      : { ok: false, problems: ['names no file: write file:/path/to/trusted-keys.json'] };
  }
  if (/^https?:\/\//i.test(text)) {
    const url = URL.parse(text);
    if (url?.protocol === 'https:' || (url?.protocol === 'http:' && LOOPBACK.test(url.hostname))) {
      return { ok: true, source: { kind: 'url', url: url.href } };
    }
    return {
      ok: false,
      problems: ['must be an https:// URL (http:// only for a loopback host such as 127.0.0.1)'],
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return {
      ok: false,
      problems: [
        'is neither a JSON Web Key Set ({"keys":[...]}), nor file:/path, nor an https:// URL of one',
      ],
    };
  }
  const read = readServiceKeySet(json);
  return read.ok ? { ok: true, source: { kind: 'inline', keySet: read.keySet } } : read;
}

/** The service keys a verifier trusts, as jose's key resolver, and the set itself for checks. */
export interface TrustedKeys {
  /** Finds the key an assertion's header names; throws jose's `JWKSNoMatchingKey` for an unknown kid. */
  readonly resolve: JWTVerifyGetKey;
  /** The current set (read or fetched now when not yet loaded). */
  keySet(): Promise<ServiceKeySet>;
}

/** Options of {@link trustedKeys}. */
export interface TrustedKeysOptions {
  source: TrustedKeysSource;
  /** Least time between two reads of a file or URL for a kid it lacks (default 5 000 ms). */
  reloadCooldownMs?: number;
  /** A file or URL is read again at the first use after this long (default 60 000 ms), so removed keys stop counting. */
  maxAgeMs?: number;
  /** Where a file that cannot be read or is not a key set is reported (default: stderr). */
  logger?: Logger;
}

const noMatchingKey = () => new errors.JWKSNoMatchingKey('no key in the trusted set has this kid');

/**
 * The trusted service keys of a verifier: fixed when given inline; from a file, read again when an
 * assertion names a kid it lacks (at most every `reloadCooldownMs`) and after `maxAgeMs`, so a key
 * added for a rotation verifies without restarting the verifier and a removed one stops; from a
 * URL through jose's `createRemoteJWKSet` with the same timings. A file that turns unreadable or
 * invalid is reported and the keys read before stay in use.
 *
 * @example
 * const keys = trustedKeys({ source: { kind: 'file', path: '/etc/switchboard/trusted-keys.json' } });
 * const authenticate = serviceAssertionAuthenticator({ audience: 'orders', trustedKeys: keys, replay });
 */
export function trustedKeys({
  source,
  reloadCooldownMs = 5_000,
  maxAgeMs = 60_000,
  logger = stderrLogger(),
}: TrustedKeysOptions): TrustedKeys {
  if (source.kind === 'inline') {
    const byKid = new Map<string, JWK>(source.keySet.keys.map((key) => [key.kid, key]));
    return {
      resolve: async (header: CompactJWSHeaderParameters) => {
        const key = byKid.get(header.kid ?? '');
        if (!key) throw noMatchingKey();
        return key;
      },
      keySet: async () => source.keySet,
    };
  }
  if (source.kind === 'url') {
    const remote = createRemoteJWKSet(new URL(source.url), {
      cooldownDuration: reloadCooldownMs,
      cacheMaxAge: maxAgeMs,
      timeoutDuration: 5_000,
    });
    return {
      resolve: remote,
      keySet: async () => {
        if (!remote.fresh) await remote.reload();
        const read = readServiceKeySet(remote.jwks());
        if (!read.ok) {
          throw new IdentityError('INVALID_OPTIONS', {
            message: `The trusted keys at ${source.url} are not valid: ${read.problems.join('; ')}.`,
          });
        }
        return read.keySet;
      },
    };
  }
  return fileKeys({ path: source.path, reloadCooldownMs, maxAgeMs, logger });
}

function fileKeys({
  path,
  reloadCooldownMs,
  maxAgeMs,
  logger,
}: {
  path: string;
  reloadCooldownMs: number;
  maxAgeMs: number;
  logger: Logger;
}): TrustedKeys {
  let current: { keySet: ServiceKeySet; byKid: Map<string, JWK> } | undefined;
  let readAt = 0;
  let reading: Promise<void> | undefined;

  const read = async () => {
    readAt = Date.now();
    let problem: string;
    try {
      const parsed = readServiceKeySet(JSON.parse(await readFile(path, 'utf8')));
      if (parsed.ok) {
        current = {
          keySet: parsed.keySet,
          byKid: new Map(parsed.keySet.keys.map((key) => [key.kid, key])),
        };
        return;
      }
      problem = parsed.problems.join('; ');
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
    if (!current) {
      throw new IdentityError('INVALID_OPTIONS', {
        message: `The trusted keys file ${path} cannot be used (${problem}); fix it, or point SWITCHBOARD_TRUSTED_KEYS elsewhere.`,
      });
    }
    logger.warn({ path, problem }, 'trusted keys file unusable; keeping the keys read before');
  };
  // One read at a time: many requests naming a new kid at once read the file once.
  const reload = () => {
    reading ??= read().finally(() => {
      reading = undefined;
    });
    return reading;
  };
  const loaded = async () => {
    if (!current || Date.now() - readAt >= maxAgeMs) await reload();
    return current as NonNullable<typeof current>;
  };

  return {
    resolve: async (header: CompactJWSHeaderParameters) => {
      const kid = header.kid ?? '';
      let key = (await loaded()).byKid.get(kid);
      if (!key && Date.now() - readAt >= reloadCooldownMs) {
        await reload();
        key = current?.byKid.get(kid);
      }
      if (!key) throw noMatchingKey();
      return key;
    },
    keySet: async () => (await loaded()).keySet,
  };
}
