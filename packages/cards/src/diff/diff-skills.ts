import { indexed } from '../json/card-entries.ts';
import { type JsonObject, strings } from '../json/card-json.ts';
import { quote } from '../json/describe-value.ts';
import { sameJson } from '../json/json-equal.ts';
import { type CardChange, type CardChangeKind, change } from './card-change.ts';
import { diffRequirements } from './diff-security.ts';

/** Media types listed before and missing now: clients using them break (an empty skill list means the defaults). */
export function modesChange(
  kind: CardChangeKind,
  path: string,
  subject: string,
  was: unknown,
  now: unknown,
): CardChange[] {
  if (sameJson(was, now)) return [];
  const after = strings(now);
  const gone =
    subject.startsWith('skill') && after.length === 0
      ? []
      : strings(was).filter((mode) => !after.includes(mode));
  return gone.length > 0
    ? [change(kind, path, `${subject} no longer lists ${gone.map(quote).join(', ')}`, true)]
    : [change(kind, path, `${subject} changed`)];
}

const SKILL_TEXT_FIELDS = ['name', 'description', 'tags', 'examples'] as const;

/** Skills matched by id: removed (breaking), added, and what changed in the rest. */
export function diffSkills(before: JsonObject, after: JsonObject): CardChange[] {
  const list = (card: JsonObject) =>
    indexed(card.skills).map(([skill, index]) => ({
      skill,
      id: typeof skill.id === 'string' ? skill.id : `#${index}`,
      path: `$.skills[${index}]`,
    }));
  const [was, now] = [list(before), list(after)];
  const changes = [
    ...was
      .filter(({ id }) => !now.some((entry) => entry.id === id))
      .map(({ id, path }) => change('skill-removed', path, `skill ${quote(id)} removed`, true)),
    ...now
      .filter(({ id }) => !was.some((entry) => entry.id === id))
      .map(({ id, path }) => change('skill-added', path, `skill ${quote(id)} added`)),
  ];
  for (const { skill, id, path } of now) {
    const old = was.find((entry) => entry.id === id)?.skill;
    if (!old) continue;
    const subject = `skill ${quote(id)}`;
    for (const field of SKILL_TEXT_FIELDS) {
      if (!sameJson(old[field], skill[field]))
        changes.push(change('skill-changed', `${path}.${field}`, `${subject}: ${field} changed`));
    }
    changes.push(
      ...modesChange(
        'skill-changed',
        `${path}.inputModes`,
        `${subject} inputModes`,
        old.inputModes,
        skill.inputModes,
      ),
      ...modesChange(
        'skill-changed',
        `${path}.outputModes`,
        `${subject} outputModes`,
        old.outputModes,
        skill.outputModes,
      ),
      ...diffRequirements(
        old.securityRequirements,
        skill.securityRequirements,
        `${path}.securityRequirements`,
      ).map((entry) => ({ ...entry, description: `${subject}: ${entry.description}` })),
    );
  }
  return changes;
}
