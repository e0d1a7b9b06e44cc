import {
  type CardKeys,
  type CardVerification,
  signatureCheck,
  trustedCardKeys,
  verifyCard,
} from '@switchboard/cards';
import { EXIT, type Output } from '../io/output.ts';
import { readCards } from '../io/read-input.ts';
import { jaegerTraceUrl, newTrace } from '../trace-context.ts';

const isUrl = (target: string) => /^https?:\/\//i.test(target);

/** The keys `--trusted-keys` names (a JWKS file or URL), or why they cannot be used. */
async function readTrustedKeys(source: string): Promise<{ keys: CardKeys } | { error: string }> {
  try {
    return { keys: await trustedCardKeys(isUrl(source) ? { url: source } : { file: source }) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** A card file: it is read and its signature checked; nothing else can be proven without the agent. */
async function verifyFile(path: string, keys: CardKeys | undefined): Promise<CardVerification | string> {
  const [input] = await readCards(path);
  if (!input || 'error' in input) return `${path} cannot be read: ${input?.error ?? 'no card'}`;
  const card =
    typeof input.json === 'object' && input.json !== null
      ? (input.json as Record<string, unknown>)
      : undefined;
  const checks = [
    { check: 'card', target: path, status: 'passed' as const, detail: `read "${String(card?.name ?? '?')}"` },
    await signatureCheck({ card: input.json, target: path, ...(keys ? { keys } : {}) }),
  ];
  return { cardUrl: path, card, checks, ok: !checks.some((check) => check.status === 'failed') };
}

/**
 * `switchboard cards verify <url|file>`: proves a live card with real calls, and its signature
 * against the keys given with `--trusted-keys` (a JWKS file or URL); a card file gets the signature
 * check only. Exit 1 when a check fails, 2 when the input or the keys cannot be read.
 */
export async function cardsVerify({
  url,
  token,
  send,
  json,
  trustedKeys,
  jaegerUrl,
  output,
}: {
  /** The agent's URL, or a card file. */
  url: string;
  token: string | undefined;
  send: boolean;
  json: boolean;
  /** A JWKS file or URL of the keys the user trusts to sign cards. */
  trustedKeys: string | undefined;
  /** When set, the verification's requests share one trace and its Jaeger link is printed. */
  jaegerUrl: string | undefined;
  output: Output;
}): Promise<number> {
  const keys = trustedKeys ? await readTrustedKeys(trustedKeys) : undefined;
  if (keys && 'error' in keys) {
    output.err(`--trusted-keys: ${keys.error}`);
    return EXIT.usage;
  }
  const trusted = keys?.keys;
  const { traceId, traceparent } = newTrace();
  const result = isUrl(url)
    ? await verifyCard({
        url,
        send,
        traceparent,
        ...(token ? { token } : {}),
        ...(trusted ? { trustedKeys: trusted } : {}),
      })
    : await verifyFile(url, trusted);
  if (typeof result === 'string') {
    output.err(`${result}; give the agent's base URL (e.g. http://localhost:8080) or a card file`);
    return EXIT.usage;
  }
  if (json) output.out(JSON.stringify(result, null, 2));
  else {
    output.out(`Verifying ${result.cardUrl}`);
    for (const check of result.checks) {
      const mark = check.status === 'passed' ? 'pass' : check.status === 'failed' ? 'FAIL' : 'skip';
      output.out(`  ${mark}  ${check.check.padEnd(9)} ${check.target}: ${check.detail}`);
    }
    const failed = result.checks.filter((check) => check.status === 'failed').length;
    output.out(
      failed === 0 ? 'Everything the card declares and could be reached works.' : `${failed} checks failed.`,
    );
    if (jaegerUrl && isUrl(url)) output.out(`Trace: ${jaegerTraceUrl({ jaegerUrl, traceId })}`);
  }
  return result.ok ? EXIT.ok : EXIT.problems;
}
