/** A short quoted form of a value for messages: strings in quotes and cut at 60 characters. */
export function quote(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : String(value);
}

/** What a value is, in words: `the string "x"`, `the number 5`, `an array`, `missing`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${quote(value)}`;
  return `the ${typeof value} ${String(value)}`;
}

/** The first sentence of a schema description, on one line. */
export function firstSentence(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const end = line.search(/\.(\s|$)/);
  return end === -1 ? `${line}.` : line.slice(0, end + 1);
}

/** A string as it is, anything else {@link quote}d. */
export const plain = (value: unknown): string => (typeof value === 'string' ? value : quote(value));
