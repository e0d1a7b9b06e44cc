import { type CardCheck, checkCard } from '@switchboard/cards';
import { column, EXIT, type Output } from '../io/output.ts';
import { readCards } from '../io/read-input.ts';

/** `switchboard cards check <file|url|dir>`: validates each card; exit 1 when any has errors. */
export async function cardsCheck({
  target,
  json,
  version,
  a2aVersion,
  output,
}: {
  target: string;
  json: boolean;
  version: '1.0' | '0.3' | undefined;
  a2aVersion: string;
  output: Output;
}): Promise<number> {
  const inputs = await readCards(target, { a2aVersion });
  const results = inputs.map((input) =>
    'error' in input
      ? { source: input.source, readError: input.error }
      : { source: input.source, check: checkCard(input.json, version ? { version } : {}) },
  );
  const failed = results.filter((result) => 'readError' in result || !result.check?.valid).length;
  const unreadable = results.filter((result) => 'readError' in result).length;
  if (json) {
    output.out(JSON.stringify({ ok: failed === 0, results }, null, 2));
  } else {
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

function render(source: string, check: CardCheck): string {
  const errors = check.problems.filter((problem) => problem.severity === 'error').length;
  const warnings = check.problems.length - errors;
  const verdict = check.valid ? 'valid' : 'INVALID';
  const lines = [
    `${source}: v${check.version === 'unknown' ? '?' : check.version} card, ${verdict} (${errors} errors, ${warnings} warnings)`,
  ];
  for (const problem of check.problems) {
    lines.push(`  ${column(problem.severity, 8)}${problem.message} [${problem.rule}]`);
    if (problem.hint) lines.push(`  ${column('', 8)}hint: ${problem.hint}`);
  }
  return lines.join('\n');
}
