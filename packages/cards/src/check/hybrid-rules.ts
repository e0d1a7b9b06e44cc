import { isObject, type JsonObject } from '../json/card-json.ts';
import { readRequirements, requirementsKey } from '../json/security-requirements.ts';
import { type CardProblem, warning } from './card-problem.ts';

/** A hybrid card tells readers of both versions the same: security requirements and extended card. */
export function hybridProblems(card: JsonObject): CardProblem[] {
  const problems: CardProblem[] = [];
  const v1 = readRequirements(card.securityRequirements, '$.securityRequirements').requirements;
  const v03 = readRequirements(card.security, '$.security').requirements;
  if (requirementsKey(v1) !== requirementsKey(v03)) {
    problems.push(
      warning({
        rule: 'hybrid',
        path: card.security === undefined ? '$.securityRequirements' : '$.security',
        message: '$.security and $.securityRequirements ask for different security',
        hint: 'Readers of v0.3 go by security, readers of v1.0 by securityRequirements: state the same requirements in both.',
      }),
    );
  }
  const capabilities = isObject(card.capabilities) ? card.capabilities : {};
  if ((capabilities.extendedAgentCard === true) !== (card.supportsAuthenticatedExtendedCard === true)) {
    problems.push(
      warning({
        rule: 'hybrid',
        path: '$.supportsAuthenticatedExtendedCard',
        message:
          '$.supportsAuthenticatedExtendedCard and $.capabilities.extendedAgentCard disagree about the extended card',
        hint: 'Readers of v0.3 go by supportsAuthenticatedExtendedCard, readers of v1.0 by capabilities.extendedAgentCard: set both alike.',
      }),
    );
  }
  return problems;
}
