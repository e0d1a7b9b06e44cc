import { indexed } from '../json/card-entries.ts';
import { isObject, type JsonObject, member, V03_ONLY_FIELDS } from '../json/card-json.ts';
import { HYBRID_SCHEME_HINTS, V03_OTHER_VERSION } from './card-hints.ts';
import { type CardProblem, type CardReading, warning } from './card-problem.ts';

const isVariantKey = (key: string) => /SecurityScheme$/.test(key);

function without(source: unknown, fields: readonly string[]): unknown {
  if (!isObject(source)) return source;
  const out = { ...source };
  for (const field of fields) delete out[field];
  return out;
}

/** A security scheme as one reading sees it: a hybrid scheme's other-version keys left out. */
function schemeView(scheme: unknown, reading: CardReading): unknown {
  if (!isObject(scheme) || !('type' in scheme) || !Object.keys(scheme).some(isVariantKey)) return scheme;
  return Object.fromEntries(
    Object.entries(scheme).filter(([key]) => (reading === '1.0') === isVariantKey(key)),
  );
}

/**
 * What readers of one version see of a hybrid card: the other version's fields (top level, skills,
 * capabilities, the other form of each security scheme) left out, as those readers skip them.
 */
export function readingView(card: JsonObject, reading: CardReading): JsonObject {
  const other: readonly string[] =
    reading === '1.0' ? V03_ONLY_FIELDS : ['supportedInterfaces', 'securityRequirements'];
  const out = without(card, other) as JsonObject;
  if (Array.isArray(card.skills)) {
    out.skills = card.skills.map((skill) =>
      without(skill, [reading === '1.0' ? 'security' : 'securityRequirements']),
    );
  }
  if (reading === '0.3' && isObject(card.capabilities)) {
    out.capabilities = without(card.capabilities, ['extendedAgentCard']);
  }
  if (isObject(card.securitySchemes)) {
    out.securitySchemes = Object.fromEntries(
      Object.entries(card.securitySchemes).map(([name, scheme]) => [name, schemeView(scheme, reading)]),
    );
  }
  return out;
}

/**
 * Problems of one reading of a hybrid card, with the reading named. A security scheme that has only
 * the other version's form gets one warning (readers of this version that validate the card refuse
 * it) whose hint keeps the other form, instead of that version's schema errors.
 */
export function tagReading(card: JsonObject, reading: CardReading, problems: CardProblem[]): CardProblem[] {
  const schemes = isObject(card.securitySchemes) ? card.securitySchemes : {};
  const lacking = Object.entries(schemes)
    .filter(([, scheme]) => {
      if (!isObject(scheme)) return false;
      const hasV1 = Object.keys(scheme).some(isVariantKey);
      return reading === '1.0' ? !hasV1 && 'type' in scheme : hasV1 && !('type' in scheme);
    })
    .map(([name]) => member('$.securitySchemes', name));
  const within = (path: string, parent: string) =>
    path === parent || path.startsWith(`${parent}.`) || path.startsWith(`${parent}[`);
  const other = reading === '1.0' ? '0.3' : '1.0';
  return [
    ...problems
      .filter((problem) => !lacking.some((path) => within(problem.path, path)))
      .map((problem) => ({ ...problem, message: `${problem.message} (as v${reading})`, reading })),
    ...lacking.map((path) =>
      warning({
        rule: 'hybrid',
        path,
        message: `${path} has only its v${other} form, which v${reading} readers that validate the card refuse (as v${reading})`,
        hint: HYBRID_SCHEME_HINTS[reading],
        reading,
      }),
    ),
  ];
}

/** Both readings' problems, one problem where both readings have the same one. */
export function mergeReadings(v1: CardProblem[], v03: CardProblem[]): CardProblem[] {
  const key = (problem: CardProblem) =>
    `${problem.severity}\n${problem.rule}\n${problem.path}\n${problem.message.replace(/ \(as v[\d.]+\)$/, '')}`;
  const v03Keys = new Set(v03.map(key));
  const common = new Set(v1.map(key).filter((k) => v03Keys.has(k)));
  const untag = ({ reading: _reading, ...problem }: CardProblem): CardProblem => ({
    ...problem,
    message: problem.message.replace(/ \(as v[\d.]+\)$/, ''),
  });
  return [
    ...v1.map((problem) => (common.has(key(problem)) ? untag(problem) : problem)),
    ...v03.filter((problem) => !common.has(key(problem))),
  ];
}

/** v1.0 fields in a card read as v0.3: legal there, but v0.3 readers ignore them. */
export function otherVersionProblems(card: JsonObject): CardProblem[] {
  const capabilities = isObject(card.capabilities) ? card.capabilities : {};
  const found = [
    ...['supportedInterfaces', 'securityRequirements']
      .filter((field) => card[field] !== undefined)
      .map((field) => ({ path: `$.${field}`, field })),
    ...(capabilities.extendedAgentCard !== undefined
      ? [{ path: '$.capabilities.extendedAgentCard', field: 'extendedAgentCard' }]
      : []),
    ...indexed(card.skills)
      .filter(([skill]) => skill.securityRequirements !== undefined)
      .map(([, index]) => ({
        path: `$.skills[${index}].securityRequirements`,
        field: 'securityRequirements',
      })),
  ];
  return found.map(({ path, field }) =>
    warning({
      rule: 'other-version-field',
      path,
      message: `${path} is a v1.0 field in a v0.3 card`,
      hint: V03_OTHER_VERSION[field] ?? 'v0.3 readers ignore it.',
    }),
  );
}
