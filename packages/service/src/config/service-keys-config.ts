import { readFileSync } from 'node:fs';
import type { ConfigProblem } from '@switchboard/config';
import {
  ownKeyProblem,
  readServiceKey,
  readServiceKeySet,
  readTrustedKeysSource,
  type ServicePrivateKey,
  type TrustedKeysSource,
} from '@switchboard/identity';

/** How a service proves itself to its peers and checks theirs. */
export interface ServiceKeysConfig {
  /** This service's private signing key (`SWITCHBOARD_SERVICE_KEY`), its kid naming the service. */
  serviceKey: ServicePrivateKey;
  /** The public keys of every service it accepts requests from (`SWITCHBOARD_TRUSTED_KEYS`). */
  trustedKeys: TrustedKeysSource;
}

const KEY_VARIABLE = 'SWITCHBOARD_SERVICE_KEY';
const TRUSTED_VARIABLE = 'SWITCHBOARD_TRUSTED_KEYS';

/**
 * Reads `SWITCHBOARD_SERVICE_KEY` (the private JWK, as JSON) and `SWITCHBOARD_TRUSTED_KEYS` (a JWKS:
 * inline JSON, `file:/path`, or an `https://` URL) for `service`, or names every problem: a missing
 * or malformed key, a key whose kid names another service, a trusted set that is not a set of
 * service public keys, or one (inline or in a file) that does not list this service's own public
 * key. A URL's set is checked when the service starts, as it is fetched then.
 */
export function readServiceKeysConfig(
  env: NodeJS.ProcessEnv,
  service: string,
): { ok: true; config: ServiceKeysConfig } | { ok: false; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  const keyJson = env[KEY_VARIABLE]?.trim();
  let serviceKey: ServicePrivateKey | undefined;
  if (!keyJson) {
    problems.push({
      variable: KEY_VARIABLE,
      message: `is required: ${service}'s private signing key, a JWK; make one with \`switchboard keys generate --service ${service}\``,
    });
  } else {
    const read = readServiceKey({ json: keyJson, service });
    if (read.ok) serviceKey = read.key;
    else for (const message of read.problems) problems.push({ variable: KEY_VARIABLE, message });
  }

  const trustedText = env[TRUSTED_VARIABLE]?.trim();
  let trustedKeys: TrustedKeysSource | undefined;
  if (!trustedText) {
    problems.push({
      variable: TRUSTED_VARIABLE,
      message:
        'is required: the public keys of every service (a JWKS {"keys":[...]}, inline, as file:/path, or an https:// URL)',
    });
  } else {
    const read = readTrustedKeysSource(trustedText);
    if (read.ok) trustedKeys = read.source;
    else for (const message of read.problems) problems.push({ variable: TRUSTED_VARIABLE, message });
  }

  const keySet =
    trustedKeys?.kind === 'inline'
      ? trustedKeys.keySet
      : trustedKeys?.kind === 'file'
        ? readKeyFile(trustedKeys.path, problems)
        : undefined;
  if (keySet && serviceKey) {
    const problem = ownKeyProblem(keySet, serviceKey);
    if (problem) problems.push({ variable: TRUSTED_VARIABLE, message: problem });
  }
  if (problems.length > 0 || !serviceKey || !trustedKeys) {
    return { ok: false, problems };
  }
  return { ok: true, config: { serviceKey, trustedKeys } };
}

/** The key set in a trusted keys file, or undefined with the problem recorded. */
function readKeyFile(path: string, problems: ConfigProblem[]) {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const why = (error as { code?: string }).code === 'ENOENT' ? 'does not exist' : 'is not readable JSON';
    problems.push({
      variable: TRUSTED_VARIABLE,
      message: `names the file ${path}, which ${why}: mount the trusted keys there, or fix the path`,
    });
    return undefined;
  }
  const read = readServiceKeySet(json);
  if (read.ok) return read.keySet;
  for (const message of read.problems) {
    problems.push({ variable: TRUSTED_VARIABLE, message: `${path}: ${message}` });
  }
  return undefined;
}
