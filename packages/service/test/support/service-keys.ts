import { generateServiceKey, type ServicePublicKey } from '@switchboard/identity';

/**
 * The key settings of a service for a test: a fresh private key for `service`
 * (`SWITCHBOARD_SERVICE_KEY`) and a trusted set of its public key and `others`'
 * (`SWITCHBOARD_TRUSTED_KEYS`, inline).
 */
export function serviceKeyEnv(
  service: string,
  others: readonly ServicePublicKey[] = [],
): { SWITCHBOARD_SERVICE_KEY: string; SWITCHBOARD_TRUSTED_KEYS: string } {
  const { privateKey, publicKey } = generateServiceKey({ service, label: 'test' });
  return {
    SWITCHBOARD_SERVICE_KEY: JSON.stringify(privateKey),
    SWITCHBOARD_TRUSTED_KEYS: JSON.stringify({ keys: [publicKey, ...others] }),
  };
}
