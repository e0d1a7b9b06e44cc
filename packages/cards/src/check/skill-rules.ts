import { indexed } from '../json/card-entries.ts';
import type { JsonObject } from '../json/card-json.ts';
import { quote } from '../json/describe-value.ts';
import { type CardProblem, error, warning } from './card-problem.ts';

/** Skill ids are unique, and a card has at least one skill. */
export function skillProblems(card: JsonObject): CardProblem[] {
  if (Array.isArray(card.skills) && card.skills.length === 0) {
    return [
      warning({
        rule: 'empty-skills',
        path: '$.skills',
        message: '$.skills is empty',
        hint: 'List at least one skill, so clients and registries can tell what the agent does.',
      }),
    ];
  }
  const first = new Map<string, string>();
  return indexed(card.skills).flatMap(([skill, index]) => {
    if (typeof skill.id !== 'string') return [];
    const path = `$.skills[${index}].id`;
    const earlier = first.get(skill.id);
    if (earlier === undefined) {
      first.set(skill.id, path);
      return [];
    }
    return [
      error({
        rule: 'duplicate-skill-id',
        path,
        message: `${path} ${quote(skill.id)} repeats ${earlier}`,
        hint: 'Give every skill its own id: clients refer to skills by id.',
      }),
    ];
  });
}

/** Input and output modes are media types; `"text"` (common in samples) is not one. */
export function mediaTypeProblems(card: JsonObject): CardProblem[] {
  const lists = [
    { list: card.defaultInputModes, path: '$.defaultInputModes' },
    { list: card.defaultOutputModes, path: '$.defaultOutputModes' },
    ...indexed(card.skills).flatMap(([skill, index]) => [
      { list: skill.inputModes, path: `$.skills[${index}].inputModes` },
      { list: skill.outputModes, path: `$.skills[${index}].outputModes` },
    ]),
  ];
  return lists.flatMap(({ list, path }) =>
    (Array.isArray(list) ? list : []).flatMap((mode, index) =>
      typeof mode !== 'string' || /^[\w!#$&^.+*-]+\/[\w!#$&^.+*-]+(\s*;.*)?$/.test(mode)
        ? []
        : [
            warning({
              rule: 'media-type',
              path: `${path}[${index}]`,
              message: `${path}[${index}] ${quote(mode)} is not a media type`,
              hint: `Write a media type such as "text/plain" or "application/json"${mode === 'text' ? ' ("text/plain" here)' : ''}.`,
            }),
          ],
    ),
  );
}

/** The agent's own version looks like a version number (a warning: its format is the provider's). */
export function agentVersionProblems(card: JsonObject): CardProblem[] {
  const version = card.version;
  if (typeof version !== 'string' || /^v?\d+(\.\d+){0,3}([-+][0-9A-Za-z.+-]+)?$/.test(version)) return [];
  return [
    warning({
      rule: 'agent-version',
      path: '$.version',
      message: `$.version ${quote(version)} does not look like a version number`,
      hint: 'Use a version such as "1.2.0", so clients and registries can tell releases apart and order them.',
    }),
  ];
}
