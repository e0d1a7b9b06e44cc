import { CARD_CANONICALIZATIONS } from '../sign/card-canonical.ts';
import type { CardKeys } from '../sign/card-keys.ts';
import { checkCardSignatures, verifyCardSignature } from '../sign/verify-card-signature.ts';

/** A `VerifyCheck` of `verifyCard` (written out here, so the two files do not import each other). */
interface SignatureCheck {
  check: 'signature';
  target: string;
  status: 'passed' | 'failed' | 'skipped';
  detail: string;
}

/** The kid of each signature's protected header, where it can be read. */
function signers(card: unknown): string[] {
  const signatures = (card as { signatures?: unknown } | undefined)?.signatures;
  if (!Array.isArray(signatures)) return [];
  return signatures.flatMap((entry) => {
    try {
      const header = JSON.parse(Buffer.from(String(entry?.protected), 'base64url').toString('utf8'));
      return typeof header?.kid === 'string' ? [header.kid] : [];
    } catch {
      return [];
    }
  });
}

/**
 * The `signature` check of a card (A2A §8.4): passed when a key the user trusts signed it, saying
 * for each signature which form it is over and whether it covers the security requirements; failed,
 * with the reason, when it is unsigned or its signature is not valid; skipped when no trusted keys
 * are given (saying whether it is signed, and by which kid).
 *
 * @example
 * checks.push(await signatureCheck({ card: json, target: cardUrl, keys }));
 */
export async function signatureCheck({
  card,
  target,
  keys,
}: {
  card: unknown;
  target: string;
  keys?: CardKeys;
}): Promise<SignatureCheck> {
  const check = (status: SignatureCheck['status'], detail: string): SignatureCheck => ({
    check: 'signature',
    target,
    status,
    detail,
  });
  if (!keys) {
    const kids = signers(card);
    return check(
      'skipped',
      kids.length > 0
        ? `signed by ${kids.map((kid) => `"${kid}"`).join(', ')}, not verified: give the keys you trust (--trusted-keys)`
        : 'unsigned; give the keys you trust (--trusted-keys) to require a signature',
    );
  }
  const result = await verifyCardSignature({ card, keys });
  if (result.status === 'valid') {
    const findings = (await checkCardSignatures({ card, keys })) ?? [];
    const each = findings.map((finding, index) =>
      finding.status === 'valid'
        ? `#${index + 1} by "${finding.kid}" over ${CARD_CANONICALIZATIONS[finding.canonicalization]}, ${finding.coversSecurity ? 'covering the security requirements' : 'NOT covering the security requirements'}`
        : `#${index + 1} ${finding.reason}: ${finding.message}`,
    );
    return check('passed', `signed by "${result.kid}", a trusted key; ${each.join('; ')}`);
  }
  if (result.status === 'unsigned') return check('failed', 'unsigned: the card carries no signature');
  return check('failed', `${result.reason}: ${result.message}`);
}
