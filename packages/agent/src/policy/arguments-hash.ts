import { createHash } from 'node:crypto';

/**
 * A value as canonical JSON: object keys sorted by UTF-16 code unit (as RFC 8785 orders them), no
 * whitespace, `undefined` and functions left out of objects and written as `null` in arrays (as
 * `JSON.stringify` does), `toJSON` honoured. The same value always gives the same text, whatever
 * order its keys were written in.
 *
 * @example
 * canonicalJson({ b: 1, a: [true, null] }); // '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  return write(value, 0) ?? 'null';
}

function write(value: unknown, depth: number): string | undefined {
  if (depth > 100) throw new TypeError('canonicalJson: the value is nested more than 100 levels deep');
  const plain =
    value && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function'
      ? (value as { toJSON: () => unknown }).toJSON()
      : value;
  if (plain === null || typeof plain !== 'object') {
    if (typeof plain === 'bigint') throw new TypeError('canonicalJson: a bigint has no JSON form');
    return JSON.stringify(plain);
  }
  if (Array.isArray(plain)) return `[${plain.map((item) => write(item, depth + 1) ?? 'null').join(',')}]`;
  const members: string[] = [];
  for (const key of Object.keys(plain).sort()) {
    const member = write((plain as Record<string, unknown>)[key], depth + 1);
    if (member !== undefined) members.push(`${JSON.stringify(key)}:${member}`);
  }
  return `{${members.join(',')}}`;
}

/**
 * What binds an approval to a call: the SHA-256 (hex) of the canonical JSON ({@link canonicalJson})
 * of the call's validated arguments. An approval runs a call only when the hash it approves is the
 * hash of the arguments the call has now.
 */
export function argumentsHash(input: unknown): string {
  return createHash('sha256').update(canonicalJson(input)).digest('hex');
}
