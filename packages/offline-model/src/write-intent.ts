import { splitIdentifier, stem } from '@switchboard/agent/lexical';
import { readObjectSchema } from './schema-view.ts';
import { words } from './text-extract.ts';
import type { ToolProfile } from './tool-ranking.ts';

/**
 * Whether a tool changes something: its declared risk is `write` or `dangerous`. A declaration
 * without `effects` (written by hand, or received over a model API, which does not carry it) is
 * taken as a read tool, as the planner always did.
 */
export function changesSomething(profile: ToolProfile): boolean {
  const risk = profile.declaration.effects?.risk;
  return risk === 'write' || risk === 'dangerous';
}

/**
 * A tool whose one required argument is the whole request (a supervisor's delegation tool) hands
 * the user's own words on: the agent it reaches decides, by the same rule, whether they ask it to
 * act.
 */
function handsRequestOn(profile: ToolProfile): boolean {
  const { properties, required } = readObjectSchema(profile.declaration.function.parameters);
  return required.size === 1 && required.has('request') && properties.length === 1;
}

const nameWords = (name: string): string[] =>
  splitIdentifier(name)
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word.length > 1);

const firstWord = (text: string): string | undefined => words(text)[0]?.lower;

/** The words that ask for a write tool's action, given the read tools beside it. */
interface ActionWords {
  /** Verbs, matched as written: the first word of the name and of the summary (`book`, `refund`). */
  verbs: Set<string>;
  /** Stems of the name's other words that no read tool's name shares (`shipping`, `address`). */
  stems: Set<string>;
}

/**
 * A write tool's action words. Words it shares with a read tool's name or verb say what the tools
 * are about, not what to do (`flight` in `book_flight` and `search_flights`), so they do not count;
 * verbs are compared as written, so "bookings" never asks for `book_flight`.
 */
function actionWords(profile: ToolProfile, readers: readonly ToolProfile[]): ActionWords {
  const readWords = new Set(readers.flatMap((reader) => nameWords(reader.name)));
  for (const reader of readers) {
    const verb = firstWord(reader.summary);
    if (verb) readWords.add(verb);
  }
  const readStems = new Set([...readWords].map(stem));
  const own = nameWords(profile.name);
  const verbs = new Set(
    [own[0], firstWord(profile.summary)].filter(
      (word): word is string => word !== undefined && !readWords.has(word),
    ),
  );
  const stems = new Set(own.map(stem).filter((term) => !readStems.has(term)));
  return { verbs, stems };
}

/**
 * Decides which tools a request may call. Read tools always may. A write or dangerous tool may only
 * when the request asks for its action in words: one of its verbs as written ("book flight FL123"
 * for `book_flight`), or one of its name's own words ("change the shipping address" for
 * `update_shipping_address`). A value in an earlier result that fits its arguments is never enough.
 */
export function writeIntent(
  profiles: readonly ToolProfile[],
  request: string,
): (profile: ToolProfile) => boolean {
  const readers = profiles.filter((profile) => !changesSomething(profile));
  const said = words(request);
  const written = new Set(said.map((word) => word.lower));
  const stems = new Set(said.map((word) => word.stem));
  const asked = new Map<string, boolean>();
  return (profile) => {
    if (!changesSomething(profile) || handsRequestOn(profile)) return true;
    let yes = asked.get(profile.name);
    if (yes === undefined) {
      const action = actionWords(profile, readers);
      yes =
        [...action.verbs].some((verb) => written.has(verb)) ||
        [...action.stems].some((term) => stems.has(term));
      asked.set(profile.name, yes);
    }
    return yes;
  };
}
