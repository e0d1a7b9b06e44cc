import { diffCards, type JsonObject } from '@switchboard/cards';
import { EXIT, type Output } from '../io/output.ts';
import { readCards } from '../io/read-input.ts';

const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `switchboard cards diff <a> <b>`: what changed from card a to card b, across versions, each change
 * marked breaking or not for existing clients. Exit 1 with `--fail-on-breaking` when any is breaking.
 */
export async function cardsDiff({
  before,
  after,
  json,
  failOnBreaking,
  output,
}: {
  before: string;
  after: string;
  json: boolean;
  failOnBreaking: boolean;
  output: Output;
}): Promise<number> {
  const cards: JsonObject[] = [];
  for (const target of [before, after]) {
    const [input, ...more] = await readCards(target);
    if (!input || more.length > 0 || 'error' in input || !isJsonObject(input.json)) {
      const why =
        !input || more.length > 0
          ? 'give one card file or URL'
          : 'error' in input
            ? input.error
            : 'not a JSON object';
      output.err(`${target}: cannot be read: ${why}`);
      return EXIT.usage;
    }
    cards.push(input.json);
  }
  const [a, b] = cards;
  if (!a || !b) return EXIT.usage;
  const diff = diffCards(a, b);
  if (json) output.out(JSON.stringify(diff, null, 2));
  else if (diff.changes.length === 0) output.out('No changes that matter to clients.');
  else {
    for (const change of diff.changes) {
      output.out(
        `${change.breaking ? 'BREAKING' : 'ok      '}  ${change.kind.padEnd(18)} ${change.path}  ${change.description}`,
      );
    }
    const breaking = diff.changes.filter((change) => change.breaking).length;
    output.out(`${diff.changes.length} changes, ${breaking} breaking for existing clients.`);
  }
  return failOnBreaking && diff.breaking ? EXIT.problems : EXIT.ok;
}
