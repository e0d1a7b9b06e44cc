import { writeFile } from 'node:fs/promises';
import { detectCardVersion, fromV03, type JsonObject, toV03 } from '@switchboard/cards';
import { EXIT, type Output } from '../io/output.ts';
import { readCards } from '../io/read-input.ts';

const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `switchboard cards convert --to 0.3|1.0 <file>`: prints (or writes) the card in the other shape. */
export async function cardsConvert({
  target,
  to,
  out,
  output,
}: {
  target: string;
  to: '0.3' | '1.0';
  out: string | undefined;
  output: Output;
}): Promise<number> {
  const [input, ...more] = await readCards(target);
  if (!input || more.length > 0) {
    output.err(`convert takes one card (a file or URL); ${target} holds ${more.length + 1}.`);
    return EXIT.usage;
  }
  if ('error' in input) {
    output.err(`${input.source}: cannot be read: ${input.error}`);
    return EXIT.usage;
  }
  const json = input.json;
  if (!isJsonObject(json) || detectCardVersion(json) === 'unknown') {
    output.err(
      `${input.source}: not an agent card (no supportedInterfaces, url or protocolVersion). Run "switchboard cards check" on it.`,
    );
    return EXIT.problems;
  }
  let converted: ReturnType<typeof toV03>;
  try {
    converted = to === '0.3' ? toV03(json) : fromV03(json);
  } catch (error) {
    output.err(`${input.source}: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.problems;
  }
  for (const warning of converted.warnings) output.err(`warning  ${warning.path}  ${warning.message}`);
  const text = `${JSON.stringify(converted.card, null, 2)}\n`;
  if (out) {
    await writeFile(out, text);
    output.err(`wrote the v${to} card to ${out} (${converted.warnings.length} warnings)`);
  } else output.out(text.trimEnd());
  return EXIT.ok;
}
