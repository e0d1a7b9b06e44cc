import { isObject } from './card-json.ts';

/** Proto3 JSON defaults: a field holding one of these means the same as the field left out. */
export const isBlank = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  value === false ||
  value === 0 ||
  value === '' ||
  (Array.isArray(value) && value.length === 0);

/**
 * Deep equality of two JSON values with proto3 JSON semantics: key order does not matter and a
 * member holding a default (`false`, `0`, `""`, `[]`, `null`) equals a missing one. Beyond
 * `maxDepth` levels values count as different rather than risk the stack.
 */
export function sameJson(a: unknown, b: unknown, maxDepth = 64): boolean {
  if (a === b || (isBlank(a) && isBlank(b))) return true;
  if (maxDepth <= 0) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, index) => sameJson(item, b[index], maxDepth - 1))
    );
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every(
    (key) => (isBlank(a[key]) && isBlank(b[key])) || sameJson(a[key], b[key], maxDepth - 1),
  );
}
