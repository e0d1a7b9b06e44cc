import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type CardWarning, checkCard, fromV03, isCardsError, type JsonObject, toV03 } from '../src/index.ts';

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const corpus = fileURLToPath(new URL('./corpus/', import.meta.url));

/** What test/corpus/verdicts.json expects of one card. */
interface Verdict {
  valid: boolean;
  version: string;
  readings: string[];
  /** `rule path` of each error, with ` (v1.0)` / ` (v0.3)` when it belongs to one reading. */
  errors: string[];
  /** Per target version: `ok`, or the CardsError code the conversion is refused with. */
  convert: Record<'1.0' | '0.3', string>;
}

const verdicts = JSON.parse(readFileSync(`${corpus}verdicts.json`, 'utf8')) as Record<string, Verdict>;
const cards = readdirSync(corpus)
  .filter((file) => file.endsWith('.json') && file !== 'verdicts.json')
  .map((file) => ({
    name: file.replace(/\.json$/, ''),
    card: JSON.parse(readFileSync(`${corpus}${file}`, 'utf8')) as JsonObject,
  }));

/** Every leaf of a JSON value (primitives, empty objects and arrays) with its JSONPath. */
function leaves(value: unknown, path = '$'): { path: string; value: unknown }[] {
  if (Array.isArray(value)) {
    return value.length === 0 ? [{ path, value }] : value.flatMap((item, i) => leaves(item, `${path}[${i}]`));
  }
  if (isObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return [{ path, value }];
    return entries.flatMap(([key, item]) =>
      leaves(item, /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`),
    );
  }
  return [{ path, value }];
}

/** The primitive values and keys anywhere in a JSON value, for "is it still there". */
function contents(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) contents(item, into);
  else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      into.add(`key:${key}`);
      contents(item, into);
    }
  } else into.add(JSON.stringify(value));
  return into;
}

/** Values the conversion writes in another form: a protocol version's Major.Minor, a scheme's variant. */
const SCHEME_VARIANTS: Record<string, string> = {
  http: 'httpAuthSecurityScheme',
  apiKey: 'apiKeySecurityScheme',
  oauth2: 'oauth2SecurityScheme',
  openIdConnect: 'openIdConnectSecurityScheme',
  mutualTLS: 'mtlsSecurityScheme',
};
const SCHEME_TYPES = Object.fromEntries(Object.entries(SCHEME_VARIANTS).map(([type, key]) => [key, type]));

function carried(leaf: { path: string; value: unknown }, output: Set<string>): boolean {
  // false and "" are the proto defaults: ProtoJSON leaves them out, and a reader takes absence for them.
  if (leaf.value === false || leaf.value === '' || output.has(JSON.stringify(leaf.value))) return true;
  const key = /\.(\w+)$/.exec(leaf.path)?.[1] ?? /\["([^"]+)"\]$/.exec(leaf.path)?.[1];
  if (typeof leaf.value === 'string') {
    // A protocol version written as Major.Minor (v1.0) or Major.Minor.Patch (v0.3).
    const majorMinor = /^(\d+\.\d+)(\.\d+)?$/.exec(leaf.value)?.[1];
    if (
      majorMinor &&
      (output.has(JSON.stringify(majorMinor)) || output.has(JSON.stringify(`${majorMinor}.0`)))
    ) {
      return true;
    }
    if (key === 'type' && output.has(`key:${SCHEME_VARIANTS[leaf.value] ?? ''}`)) return true;
  }
  // An empty object or array: its key is still there (e.g. `"mtlsSecurityScheme": {}`, `"scopes": []`).
  if (key && typeof leaf.value === 'object') {
    return (
      output.has(`key:${key}`) ||
      output.has(`key:${SCHEME_TYPES[key] ?? ''}`) ||
      output.has(`"${SCHEME_TYPES[key]}"`)
    );
  }
  return false;
}

const reported = (path: string, warnings: CardWarning[]) =>
  warnings.some((w) => path === w.path || path.startsWith(`${w.path}.`) || path.startsWith(`${w.path}[`));

describe('the corpus of real cards (test/corpus, sources in SOURCES.md)', () => {
  it('has a verdict for every card, and at least 26 cards', () => {
    expect(cards.length).toBeGreaterThanOrEqual(26);
    expect(Object.keys(verdicts).sort()).toEqual(cards.map(({ name }) => name).sort());
  });

  it.each(cards)('checks $name as verdicts.json says', ({ name, card }) => {
    const verdict = verdicts[name];
    const result = checkCard(card);
    const errors = result.problems
      .filter((problem) => problem.severity === 'error')
      .map((problem) => `${problem.rule} ${problem.path}${problem.reading ? ` (v${problem.reading})` : ''}`);
    expect({
      valid: result.valid,
      version: result.version,
      readings: result.readings,
      errors: [...new Set(errors)],
    }).toEqual({
      valid: verdict?.valid,
      version: verdict?.version,
      readings: verdict?.readings,
      errors: verdict?.errors,
    });
  });

  it.each(cards)(
    'converts $name to each version into a card the checker passes, losing nothing unreported',
    ({ name, card }) => {
      for (const [target, convert] of [
        ['1.0', fromV03],
        ['0.3', toV03],
      ] as const) {
        const expected = verdicts[name]?.convert[target];
        let converted: ReturnType<typeof fromV03>;
        try {
          converted = convert(card);
        } catch (error) {
          expect(isCardsError(error) ? error.code : error, `${name} → v${target}`).toBe(expected);
          continue;
        }
        expect(expected, `${name} → v${target}`).toBe('ok');
        const check = checkCard(converted.card, { version: target });
        expect(
          check.problems.filter((p) => p.severity === 'error'),
          `${name} → v${target}`,
        ).toEqual([]);
        const output = contents(converted.card);
        // v0.3 has no per-interface protocol version: an interface carried to v0.3 carries its version.
        const perInterface = (path: string) =>
          target === '0.3' && /^\$\.supportedInterfaces\[\d+\]\.protocolVersion$/.test(path);
        const lost = leaves(card).filter(
          (leaf) =>
            !carried(leaf, output) && !reported(leaf.path, converted.warnings) && !perInterface(leaf.path),
        );
        expect(lost, `${name} → v${target}: fields neither carried nor reported`).toEqual([]);
      }
    },
  );
});
