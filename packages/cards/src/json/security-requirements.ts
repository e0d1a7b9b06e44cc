import { isObject, type JsonObject, member, strings } from './card-json.ts';

/** One security requirement: scheme name → scopes (all of them must be satisfied). */
export type Requirement = { name: string; scopes: string[]; path: string }[];

/** Something in a requirement that could not be read, with where it is. */
export interface UnreadRequirement {
  path: string;
  value: unknown;
}

function scopesOf(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return strings(value);
  if (isObject(value) && Array.isArray(value.list)) return strings(value.list);
  if (isObject(value) && Object.keys(value).length === 0) return [];
  return undefined;
}

/**
 * Security requirements in any shape seen in published cards: v1.0 `{schemes: {name: {list}}}`,
 * v1.0 with bare scope arrays `{schemes: {name: [...]}}` (a2a-go), v0.3 `{name: [...]}`. What cannot
 * be read is listed in `unread`, so a caller can report it instead of losing it.
 */
export function readRequirements(
  value: unknown,
  path: string,
): { requirements: Requirement[]; unread: UnreadRequirement[] } {
  const unread: UnreadRequirement[] = [];
  const requirements = (Array.isArray(value) ? value : []).flatMap((entry, index) => {
    const at = `${path}[${index}]`;
    if (!isObject(entry)) {
      unread.push({ path: at, value: entry });
      return [];
    }
    const wrapped = Object.keys(entry).length === 1 && isObject(entry.schemes);
    const schemes: JsonObject = wrapped && isObject(entry.schemes) ? entry.schemes : entry;
    const base = wrapped ? `${at}.schemes` : at;
    return [
      Object.entries(schemes).flatMap(([name, scopes]) => {
        const read = scopesOf(scopes);
        if (read === undefined) {
          unread.push({ path: member(base, name), value: scopes });
          return [];
        }
        return [{ name, scopes: read, path: member(base, name) }];
      }),
    ];
  });
  if (value !== undefined && !Array.isArray(value)) unread.push({ path, value });
  return { requirements, unread };
}

/** A requirement list as a comparable string (order of schemes and scopes ignored). */
export function requirementsKey(requirements: Requirement[]): string {
  return JSON.stringify(
    requirements
      .map((requirement) =>
        requirement.map(({ name, scopes }) => `${name}:${[...scopes].sort().join(' ')}`).sort(),
      )
      .sort(),
  );
}
