import { splitIdentifier, stem } from '@switchboard/agent/lexical';
import { compilePattern } from './schema-view.ts';

/** A value found in a text and where: `start` identifies it so two properties do not take the same one. */
export interface Found<T> {
  start: number;
  value: T;
}

const NOT_WORD_BEFORE = '(?<![A-Za-z0-9])';
const NOT_WORD_AFTER = '(?![A-Za-z0-9])';

function allMatches(regex: RegExp, text: string): RegExpExecArray[] {
  return [...text.matchAll(regex)];
}

/** Removes the outer `^` and `$` anchors of a pattern so it can be searched for inside a text. */
export function unanchor(pattern: string): string {
  let core = pattern.startsWith('^') ? pattern.slice(1) : pattern;
  if (core.endsWith('$') && !core.endsWith('\\$')) core = core.slice(0, -1);
  return core;
}

/**
 * Whole-word matches of a schema pattern, found case-insensitively and returned in the case the
 * pattern accepts (`a20417` → `A20417` for `^A\d{5}$`); matches no casing satisfies are dropped.
 */
export function findPattern(pattern: string, text: string): Found<string>[] {
  const search = compilePattern(`${NOT_WORD_BEFORE}(?:${unanchor(pattern)})${NOT_WORD_AFTER}`, 'gi');
  const exact = compilePattern(pattern);
  if (!search || !exact) return [];
  const found: Found<string>[] = [];
  for (const match of allMatches(search, text)) {
    const raw = match[0];
    const value = [raw, raw.toUpperCase(), raw.toLowerCase()].find((candidate) => exact.test(candidate));
    if (raw && value !== undefined) found.push({ start: match.index, value });
  }
  return found;
}

/** Standalone numbers: `2`, `59.90`, `-3`; digits inside identifiers (`A20417`, `SKU-1234`) are not numbers. */
export function findNumbers(text: string): Found<number>[] {
  const regex = /(?<![\p{L}\p{N}_.\-/])-?\d+(?:\.\d+)?(?![\p{L}\p{N}_-]|[.,]\d)/gu;
  return allMatches(regex, text).map((match) => ({ start: match.index, value: Number(match[0]) }));
}

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

const RELATIVE_DAYS: Readonly<Record<string, number>> = { yesterday: -1, today: 0, tomorrow: 1 };

/** ISO dates (`2025-03-14`), and `today` / `tomorrow` / `yesterday` relative to `now` (UTC). */
export function findDates(text: string, now: Date): Found<string>[] {
  const found: Found<string>[] = [];
  for (const match of allMatches(/(?<![\d-])(\d{4})-(\d{2})-(\d{2})(?![\d-])/g, text)) {
    const date = new Date(`${match[0]}T00:00:00Z`);
    if (!Number.isNaN(date.getTime()) && isoDay(date) === match[0])
      found.push({ start: match.index, value: match[0] });
  }
  for (const match of allMatches(/\b(yesterday|today|tomorrow)\b/gi, text)) {
    const offset = RELATIVE_DAYS[(match[1] ?? '').toLowerCase()] ?? 0;
    found.push({ start: match.index, value: isoDay(new Date(now.getTime() + offset * 86_400_000)) });
  }
  return found.sort((a, b) => a.start - b.start);
}

/** ISO date-times such as `2025-03-14T09:30:00Z`. */
export function findDateTimes(text: string): Found<string>[] {
  const regex = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?/g;
  return allMatches(regex, text)
    .filter((match) => !Number.isNaN(new Date(match[0]).getTime()))
    .map((match) => ({ start: match.index, value: match[0] }));
}

/** Email addresses. */
export function findEmails(text: string): Found<string>[] {
  return allMatches(/[\w.+'-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g, text).map((match) => ({
    start: match.index,
    value: match[0],
  }));
}

/** URLs starting with http(s)://. */
export function findUrls(text: string): Found<string>[] {
  return allMatches(/https?:\/\/[^\s"'<>]+[^\s"'<>.,;:!?)]/g, text).map((match) => ({
    start: match.index,
    value: match[0],
  }));
}

/** Texts in double, typographic or single quotes (single quotes only when they are not apostrophes). */
export function findQuoted(text: string): Found<string>[] {
  const regex = /"([^"\n]{1,200})"|“([^”\n]{1,200})”|(?<![\p{L}\p{N}])'([^'\n]{1,200})'(?![\p{L}\p{N}])/gu;
  return allMatches(regex, text).map((match) => ({
    start: match.index,
    value: (match[1] ?? match[2] ?? match[3] ?? '').trim(),
  }));
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A value written after a label: `product: Acme Blender`, `name = Ada Lovelace`, `postcode 10115`
 * (without `:` or `=`, only a single token containing a digit is taken).
 */
export function findLabelled(label: string, text: string): Found<string>[] {
  const words = splitIdentifier(label).trim().split(/\s+/).map(escapeRegex).join('[\\s_-]*');
  const regex = new RegExp(
    `\\b${words}\\b\\s*[:=]\\s*("[^"\\n]+"|[^,;!?\\n]+?)(?=[,;!?\\n]|\\.(?:\\s|$)|$)|\\b${words}\\s+([\\w-]*\\d[\\w-]*)`,
    'gi',
  );
  return allMatches(regex, text)
    .map((match) => ({
      start: match.index,
      value: (match[1] ?? match[2] ?? '').replace(/^"|"$/g, '').trim(),
    }))
    .filter((found) => found.value.length > 0 && found.value.length <= 80);
}

/** One word of a text with its position and stem. */
export interface Word {
  start: number;
  lower: string;
  stem: string;
}

/** Every word of a text, stop words included, in order. */
export function words(text: string): Word[] {
  return allMatches(/[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu, text).map((match) => ({
    start: match.index,
    lower: match[0].toLowerCase(),
    stem: stem(match[0]),
  }));
}

const NEGATIONS = new Set(['not', 'no', 'never', 'without', "isn't", "don't", "doesn't", 'non', 'nor']);

/** Whether one of the two words before position `index` negates it ("not urgent", "without gift wrap"). */
export function negated(all: readonly Word[], index: number): boolean {
  return all.slice(Math.max(0, index - 2), index).some((word) => NEGATIONS.has(word.lower));
}

/**
 * Where a phrase (e.g. an enum value `in_transit` or a property name `giftWrap`) is mentioned,
 * compared word by word on stems, so inflections match ("negatively" for `negative`).
 */
export function findPhrase(phrase: string, all: readonly Word[]): Found<boolean>[] {
  const target = words(splitIdentifier(phrase)).map((word) => word.stem);
  if (target.length === 0) return [];
  const found: Found<boolean>[] = [];
  for (let i = 0; i + target.length <= all.length; i++) {
    if (target.every((part, offset) => all[i + offset]?.stem === part)) {
      const first = all[i];
      if (first) found.push({ start: first.start, value: !negated(all, i) });
    }
  }
  return found;
}

/** Splits a request into clauses: at sentence ends, commas, semicolons and joining words like "and". */
export function splitClauses(text: string): string[] {
  return text
    .split(/[.?!;]+(?=\s|$)|[,\n]|\s(?:and|also|plus|then)\s/i)
    .map((clause) => clause.trim())
    .filter((clause) => clause.length > 0);
}
