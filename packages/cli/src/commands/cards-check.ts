import {
  type CardCheck,
  type CardVersion,
  cardVersionLabel,
  checkCard,
  detectCardVersion,
} from '@switchboard/cards';
import { column, EXIT, type Output } from '../io/output.ts';
import { type CardInput, readCards } from '../io/read-input.ts';

/** The three ways a URL's card is fetched when no `--a2a-version` is given: no header, 1.0, 0.3. */
const REQUESTS = ['', '1.0', '0.3'] as const;

/** One card read and checked; for a URL fetched three ways, also the request and the shape served. */
type Result =
  | { source: string; a2aVersion?: string; readError: string; notServed?: boolean }
  | { source: string; a2aVersion?: string; shape?: CardVersion; check: CardCheck };

/** The A2A-Version a result was fetched with, as a person reads it. */
const requestName = (a2aVersion: string) => (a2aVersion ? `A2A-Version ${a2aVersion}` : 'no A2A-Version');

/** A server that refuses a version it does not serve answers 400; that is an answer, not a failure. */
const refusedVersion = (input: CardInput, a2aVersion: string) =>
  a2aVersion !== '' && 'error' in input && /^the server answered HTTP 400\b/.test(input.error);

/**
 * `switchboard cards check <file|url|dir>`: validates each card; exit 1 when any has errors. A URL
 * without `--a2a-version` is fetched three ways (no header, `A2A-Version: 1.0`, `0.3`), and each
 * answer says which card shape it is (v1.0, v0.3, hybrid) before it is checked; a version the
 * server refuses with 400 is reported as not served, not as an error.
 */
export async function cardsCheck({
  target,
  json,
  version,
  a2aVersion,
  followRedirects = false,
  output,
}: {
  target: string;
  json: boolean;
  version: '1.0' | '0.3' | undefined;
  /** The A2A-Version to fetch a URL with; undefined fetches it with each. */
  a2aVersion: string | undefined;
  /** `--follow-redirects`: follow a URL's redirects, saying where they led (default: refuse them). */
  followRedirects?: boolean;
  output: Output;
}): Promise<number> {
  const byRequest = /^https?:\/\//i.test(target) && a2aVersion === undefined;
  const fetched: { request: string | undefined; input: CardInput | undefined }[] = byRequest
    ? await Promise.all(
        REQUESTS.map(async (request) => ({
          request,
          input: (await readCards(target, { a2aVersion: request, followRedirects }))[0],
        })),
      )
    : (await readCards(target, { a2aVersion: a2aVersion ?? '1.0', followRedirects })).map((input) => ({
        request: undefined,
        input,
      }));
  const results = fetched.flatMap(({ request, input }): Result[] => {
    if (!input) return [];
    const asked = request === undefined ? {} : { a2aVersion: request };
    if ('error' in input) {
      return [
        {
          source: input.source,
          ...asked,
          readError: input.error,
          ...(request !== undefined && refusedVersion(input, request) ? { notServed: true } : {}),
        },
      ];
    }
    const check = checkCard(input.json, version ? { version } : {});
    return [
      {
        source: input.source,
        ...asked,
        ...(byRequest ? { shape: detectCardVersion(input.json) } : {}),
        check,
      },
    ];
  });
  const failed = results.filter((result) =>
    'readError' in result ? !result.notServed : !result.check.valid,
  ).length;
  const unreadable = results.filter((result) => 'readError' in result).length;
  const redirects = new Map(
    fetched
      .flatMap(({ input }) => input?.redirects ?? [])
      .map((hop) => [`${hop.from} redirected (HTTP ${hop.status}) to ${hop.to}`, hop]),
  );
  if (json) {
    output.out(JSON.stringify({ ok: failed === 0, results, redirects: [...redirects.values()] }, null, 2));
  } else if (byRequest) {
    for (const said of redirects.keys()) output.out(said);
    output.out(renderByRequest(results));
  } else {
    for (const said of redirects.keys()) output.out(said);
    for (const result of results) {
      if ('readError' in result) output.out(`${result.source}: cannot be read: ${result.readError}`);
      else output.out(render(result.source, result.check));
    }
    if (results.length > 1) {
      output.out(`${results.length} cards checked: ${results.length - failed} valid, ${failed} with errors.`);
    }
  }
  if (unreadable > 0 && unreadable === results.length) return EXIT.usage;
  return failed > 0 ? EXIT.problems : EXIT.ok;
}

function counts(check: CardCheck): string {
  const errors = check.problems.filter((problem) => problem.severity === 'error').length;
  return `${check.valid ? 'valid' : 'INVALID'} (${errors} errors, ${check.problems.length - errors} warnings)`;
}

function problemLines(check: CardCheck, indent: string): string[] {
  return check.problems.flatMap((problem) => [
    `${indent}${column(problem.severity, 8)}${problem.message} [${problem.rule}]`,
    ...(problem.hint ? [`${indent}${column('', 8)}hint: ${problem.hint}`] : []),
  ]);
}

function render(source: string, check: CardCheck): string {
  return [
    `${source}: ${cardVersionLabel(check.version)}, ${counts(check)}`,
    ...problemLines(check, '  '),
  ].join('\n');
}

const SHAPE_NAMES: Record<CardVersion, string> = {
  '1.0': 'the v1.0 card',
  '0.3': 'the v0.3 card',
  hybrid: 'the hybrid card (v1.0 with the v0.3 fields)',
  unknown: 'a card of no known shape',
};

function renderByRequest(results: readonly Result[]): string {
  const lines = [`${results[0]?.source ?? ''}:`];
  for (const result of results) {
    const asked = column(requestName(result.a2aVersion ?? ''), 16);
    if ('readError' in result) {
      lines.push(`  ${asked} → ${result.notServed ? 'not served' : 'error'}: ${result.readError}`);
      continue;
    }
    lines.push(`  ${asked} → ${SHAPE_NAMES[result.shape ?? 'unknown']}, ${counts(result.check)}`);
    lines.push(...problemLines(result.check, '      '));
  }
  return lines.join('\n');
}
