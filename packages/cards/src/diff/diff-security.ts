import { isObject, type JsonObject, member, objects, strings } from '../json/card-json.ts';
import { quote } from '../json/describe-value.ts';
import { sameJson } from '../json/json-equal.ts';
import type { CardChange } from './card-change.ts';

/** One way to satisfy a requirement list: scheme name → scopes needed (all of them, together). */
type Alternative = Map<string, Set<string>>;

/** v1.0 `securityRequirements`: any one alternative will do (an OR of ANDs). */
const alternatives = (requirements: unknown): Alternative[] =>
  objects(requirements).map(
    (requirement) =>
      new Map(
        Object.entries(isObject(requirement.schemes) ? requirement.schemes : {}).map(([name, scopes]) => [
          name,
          new Set(strings(isObject(scopes) ? scopes.list : [])),
        ]),
      ),
  );

/** True when a client that satisfies `held` also satisfies `wanted`. */
const covers = (wanted: Alternative, held: Alternative) =>
  [...wanted].every(([name, scopes]) => {
    const have = held.get(name);
    return have !== undefined && [...scopes].every((scope) => have.has(scope));
  });

const describeAlternative = (alternative: Alternative) =>
  [...alternative]
    .map(([name, scopes]) => (scopes.size > 0 ? `${name} [${[...scopes].join(', ')}]` : name))
    .join(' + ') || 'no credentials';

/**
 * How a requirement list changed. Stricter (breaking): it was open and now asks for credentials,
 * or some way a client used to satisfy it is no longer enough. Looser: it is open now, or it
 * accepts a way it did not. An empty list means no credentials are needed.
 */
export function diffRequirements(before: unknown, after: unknown, path: string): CardChange[] {
  if (sameJson(before, after)) return [];
  const was = alternatives(before);
  const now = alternatives(after);
  const change = (description: string, breaking: boolean): CardChange[] => [
    { kind: 'security-changed', path, description, breaking },
  ];
  if (was.length === 0 && now.length > 0) {
    return change(`security now required: ${now.map(describeAlternative).join(' or ')}`, true);
  }
  const refused =
    now.length === 0 ? undefined : was.find((held) => !now.some((wanted) => covers(wanted, held)));
  if (refused) {
    return change(
      `security requirements tightened: ${describeAlternative(refused)} is no longer accepted`,
      true,
    );
  }
  const accepted = now.length === 0 || now.some((wanted) => !was.some((held) => covers(held, wanted)));
  return change(
    accepted ? 'security requirements loosened' : 'security requirements rewritten, same effect',
    false,
  );
}

const variantOf = (scheme: unknown) => (isObject(scheme) ? (Object.keys(scheme)[0] ?? '(none)') : '(none)');

/** The scheme without its human-readable descriptions, which clients do not act on. */
function withoutDescriptions(scheme: unknown): unknown {
  if (!isObject(scheme)) return scheme;
  return Object.fromEntries(
    Object.entries(scheme).map(([variant, body]) => {
      if (!isObject(body)) return [variant, body];
      const { description: _description, ...rest } = body;
      return [variant, rest];
    }),
  );
}

/** Schemes removed or changed are breaking (clients hold credentials for them); added ones are not. */
export function diffSchemes(before: JsonObject, after: JsonObject): CardChange[] {
  const was = isObject(before.securitySchemes) ? before.securitySchemes : {};
  const now = isObject(after.securitySchemes) ? after.securitySchemes : {};
  return [...new Set([...Object.keys(was), ...Object.keys(now)])].flatMap((name): CardChange[] => {
    const path = member('$.securitySchemes', name);
    const [old, next] = [was[name], now[name]];
    if (next === undefined) {
      return [
        {
          kind: 'security-changed',
          path,
          description: `security scheme ${quote(name)} removed`,
          breaking: true,
        },
      ];
    }
    if (old === undefined) {
      return [
        {
          kind: 'security-changed',
          path,
          description: `security scheme ${quote(name)} added`,
          breaking: false,
        },
      ];
    }
    if (sameJson(old, next)) return [];
    if (sameJson(withoutDescriptions(old), withoutDescriptions(next))) {
      return [
        {
          kind: 'security-changed',
          path,
          description: `description of security scheme ${quote(name)} changed`,
          breaking: false,
        },
      ];
    }
    const variants =
      variantOf(old) === variantOf(next) ? variantOf(old) : `${variantOf(old)} → ${variantOf(next)}`;
    return [
      {
        kind: 'security-changed',
        path,
        description: `security scheme ${quote(name)} changed (${variants})`,
        breaking: true,
      },
    ];
  });
}
