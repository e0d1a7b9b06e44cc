import { splitIdentifier } from '@switchboard/agent/lexical';
import type { Found } from './text-extract.ts';

/**
 * The words that introduce a free-text value, by what a property's name says it holds: `from` for an
 * origin, `to` for a destination, `in` or `at` for a place. The first group a name's words meet wins,
 * so `departure_city` is an origin, not any place.
 */
const CUES: readonly { names: RegExp; cues: readonly string[] }[] = [
  { names: /^(from|origin|departure|depart|departing|source|start)$/, cues: ['from'] },
  { names: /^(to|destination|arrival|arrive|arriving|dest|target)$/, cues: ['to'] },
  {
    names: /^(city|town|location|place|country|region|area|where|destination)$/,
    cues: ['in', 'at', 'for', 'near', 'around'],
  },
];

/** The cue words of a property, e.g. `['from']` for `from` or `originCity`; empty when it has none. */
export function cuesOf(property: string): readonly string[] {
  const words = splitIdentifier(property).toLowerCase().split(/\s+/);
  return CUES.find((group) => words.some((word) => group.names.test(word)))?.cues ?? [];
}

/** A capitalised name of up to four words, with the small words places have inside ("Rio de Janeiro"). */
const NAME = String.raw`\p{Lu}[\p{L}'’.-]*(?:\s+(?:(?:de|da|do|del|la|le|am)\s+)?\p{Lu}[\p{L}'’.-]*){0,3}`;
/** One lowercase word, ending the clause or followed by another cue ("from paris to rome"). */
const WORD = String.raw`\p{Ll}[\p{L}'’-]*(?=\s*(?:[,.;!?]|$)|\s+(?:from|to|in|at|on|for|and)(?![\p{L}\p{N}]))`;
/** "want to go", "need to know": a `to` that starts a verb, not a destination. */
const INFINITIVE =
  /\b(?:want|wants|need|needs|like|love|going|have|has|able|trying|try|wish|how|what|where|when)\s+$/i;
const SMALL_WORDS = new Set([
  'the',
  'a',
  'an',
  'my',
  'your',
  'our',
  'me',
  'it',
  'this',
  'that',
  'there',
  'here',
]);

/**
 * Free-text values after a property's cue words: "weather in Lisbon" → `Lisbon` for `city`, "flights
 * from Paris to Rome" → `Paris` for `from` and `Rome` for `to`. Capitalised names come first, in
 * order; a lowercase word counts only where it ends the clause or another cue follows it.
 */
export function findCued(property: string, text: string): Found<string>[] {
  const cues = cuesOf(property);
  if (cues.length === 0) return [];
  // No `i` flag: it would let \p{Lu} match lowercase letters too; the cue words take either case.
  const anyCase = cues.map((cue) => [...cue].map((c) => `[${c.toUpperCase()}${c}]`).join(''));
  const regex = new RegExp(
    String.raw`(?<![\p{L}\p{N}])(${anyCase.join('|')})\s+(?:(${NAME})|(${WORD}))`,
    'gu',
  );
  const named: Found<string>[] = [];
  const plain: Found<string>[] = [];
  for (const match of text.matchAll(regex)) {
    const [, cue = '', name, word] = match;
    if (cue.toLowerCase() === 'to' && INFINITIVE.test(text.slice(0, match.index))) continue;
    const value = (name ?? word ?? '').replace(/[.'’-]+$/, '');
    const start = match.index + match[0].length - (name ?? word ?? '').length;
    if (!value || SMALL_WORDS.has(value.toLowerCase())) continue;
    (name ? named : plain).push({ start, value });
  }
  return [...named, ...plain];
}
