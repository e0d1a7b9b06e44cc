import { indexed } from '../json/card-entries.ts';
import { isObject, type JsonObject } from '../json/card-json.ts';
import { quote } from '../json/describe-value.ts';
import { readRequirements } from '../json/security-requirements.ts';
import { type CardProblem, error, warning } from './card-problem.ts';

/** Requirements in either shape: v1.0 `[{schemes: {name: {list}}}]` or v0.3 `[{name: [scopes]}]`. */
function requirementNames(holder: JsonObject, path: string): { name: string; path: string }[] {
  return ['securityRequirements', 'security'].flatMap((field) =>
    readRequirements(holder[field], `${path}.${field}`).requirements.flat(),
  );
}

/**
 * Security requirements (card and skills, either version's shape) name declared schemes, and an
 * extended card, served only to authenticated clients, comes with a scheme to authenticate with.
 */
export function securityProblems(card: JsonObject): CardProblem[] {
  const declared = Object.keys(isObject(card.securitySchemes) ? card.securitySchemes : {});
  const uses = [
    ...requirementNames(card, '$'),
    ...indexed(card.skills).flatMap(([skill, index]) => requirementNames(skill, `$.skills[${index}]`)),
  ];
  const problems = uses
    .filter(({ name }) => !declared.includes(name))
    .map(({ name, path }) =>
      error({
        rule: 'unknown-security-scheme',
        path,
        message: `${path} names the security scheme ${quote(name)}, which securitySchemes does not declare`,
        hint: `Declare ${quote(name)} in securitySchemes${declared.length > 0 ? `, or use one of ${declared.map(quote).join(', ')}` : ''}.`,
      }),
    );
  const capabilities = isObject(card.capabilities) ? card.capabilities : {};
  const flags = [
    { on: capabilities.extendedAgentCard === true, path: '$.capabilities.extendedAgentCard' },
    { on: card.supportsAuthenticatedExtendedCard === true, path: '$.supportsAuthenticatedExtendedCard' },
  ];
  for (const { path } of declared.length > 0 ? [] : flags.filter(({ on }) => on)) {
    problems.push(
      warning({
        rule: 'extended-card-without-security',
        path,
        message: `${path} is true but the card declares no security scheme`,
        hint: 'Clients must authenticate to fetch the extended card: declare the scheme in securitySchemes (and require it), or set this to false.',
      }),
    );
  }
  return problems;
}
