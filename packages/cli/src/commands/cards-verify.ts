import { verifyCard } from '@switchboard/a2a';
import { EXIT, type Output } from '../io/output.js';

/** `switchboard cards verify <url>`: proves the card with real calls; exit 1 when a check fails. */
export async function cardsVerify({
  url,
  token,
  send,
  json,
  output,
}: {
  url: string;
  token: string | undefined;
  send: boolean;
  json: boolean;
  output: Output;
}): Promise<number> {
  if (!/^https?:\/\//i.test(url)) {
    output.err(`"${url}" is not an http(s) URL; give the agent's base URL, e.g. http://localhost:8080`);
    return EXIT.usage;
  }
  const result = await verifyCard({ url, send, ...(token ? { token } : {}) });
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
  }
  return result.ok ? EXIT.ok : EXIT.problems;
}
