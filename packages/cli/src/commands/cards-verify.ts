import { verifyCard } from '@switchboard/cards';
import { EXIT, type Output } from '../io/output.ts';
import { jaegerTraceUrl, newTrace } from '../trace-context.ts';

/** `switchboard cards verify <url>`: proves the card with real calls; exit 1 when a check fails. */
export async function cardsVerify({
  url,
  token,
  send,
  json,
  jaegerUrl,
  output,
}: {
  url: string;
  token: string | undefined;
  send: boolean;
  json: boolean;
  /** When set, the verification's requests share one trace and its Jaeger link is printed. */
  jaegerUrl: string | undefined;
  output: Output;
}): Promise<number> {
  if (!/^https?:\/\//i.test(url)) {
    output.err(`"${url}" is not an http(s) URL; give the agent's base URL, e.g. http://localhost:8080`);
    return EXIT.usage;
  }
  const { traceId, traceparent } = newTrace();
  const result = await verifyCard({ url, send, traceparent, ...(token ? { token } : {}) });
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
    if (jaegerUrl) output.out(`Trace: ${jaegerTraceUrl({ jaegerUrl, traceId })}`);
  }
  return result.ok ? EXIT.ok : EXIT.problems;
}
