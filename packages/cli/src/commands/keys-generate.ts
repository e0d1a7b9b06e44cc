import { generateServiceKey } from '@switchboard/identity';
import { EXIT, type Output } from '../io/output.ts';

/** Options of {@link keysGenerateCommand}. */
export interface KeysGenerateOptions {
  /** The service the key is for: its kid is `<service>:<label>`. */
  service: string;
  /** Tells this key from the service's others (default: today's date). */
  label: string | undefined;
  json: boolean;
  output: Output;
}

/**
 * `switchboard keys generate --service <name>`: a new Ed25519 signing key for one service. Prints
 * the private JWK (the service's `SWITCHBOARD_SERVICE_KEY`, a secret) and its public JWK (to add to
 * the trusted set every service reads, `SWITCHBOARD_TRUSTED_KEYS`). Nothing is written to disk.
 */
export function keysGenerateCommand({ service, label, json, output }: KeysGenerateOptions): number {
  let made: ReturnType<typeof generateServiceKey>;
  try {
    made = generateServiceKey({ service, ...(label ? { label } : {}) });
  } catch (error) {
    output.err(error instanceof Error ? error.message : String(error));
    return EXIT.usage;
  }
  const { privateKey, publicKey } = made;
  if (json) {
    output.out(JSON.stringify({ privateKey, publicKey }));
    return EXIT.ok;
  }
  output.out(
    `# SWITCHBOARD_SERVICE_KEY of ${service} (kid ${privateKey.kid}): a secret, for ${service} only`,
  );
  output.out(JSON.stringify(privateKey));
  output.out('');
  output.out(
    '# Its public key: add it to the "keys" of the trusted set (SWITCHBOARD_TRUSTED_KEYS) every service reads',
  );
  output.out(JSON.stringify(publicKey));
  output.err(
    `To rotate: add the public key to the trusted set first, then restart ${service} with the new private key; remove the old public key once ${service} no longer uses it.`,
  );
  return EXIT.ok;
}
