import { checkCard } from '../check/check-card.ts';
import { CardsError } from '../errors.ts';
import {
  type CardVersion,
  type CardWarning,
  detectCardVersion,
  isObject,
  type JsonObject,
  member,
  V03_ONLY_FIELDS,
} from '../json/card-json.ts';
import { describeValue } from '../json/describe-value.ts';

/** Every top-level card field a conversion reads, in either direction; what else a card has is reported (to v1.0) or carried (to v0.3). */
export const KNOWN_CARD_FIELDS: readonly string[] = [
  'name',
  'description',
  'supportedInterfaces',
  'provider',
  'version',
  'documentationUrl',
  'capabilities',
  'securitySchemes',
  'securityRequirements',
  'defaultInputModes',
  'defaultOutputModes',
  'skills',
  'signatures',
  'iconUrl',
  ...V03_ONLY_FIELDS,
];

/**
 * The version of a card about to be converted; a document that is not an A2A card is refused,
 * saying what it lacks.
 */
export function convertibleVersion(card: unknown): Exclude<CardVersion, 'unknown'> {
  const version = detectCardVersion(card);
  if (version !== 'unknown' && isObject(card)) return version;
  const has = isObject(card) ? Object.keys(card).slice(0, 8).join(', ') || 'no fields' : describeValue(card);
  throw new CardsError('NOT_A_CARD', {
    message: `This is not an A2A Agent Card (it has ${has}): it lacks supportedInterfaces (v1.0) and url and protocolVersion (v0.3), so there is nothing to convert. Add the endpoint the agent answers on, then run "switchboard cards check" on it.`,
  });
}

/** A warning for each field of `source` that `known` does not name: the target cannot hold it. */
export function unknownFields({
  source,
  known,
  path,
  target,
  warnings,
}: {
  source: JsonObject;
  known: readonly string[];
  path: string;
  target: '1.0' | '0.3';
  warnings: CardWarning[];
}): void {
  for (const key of Object.keys(source)) {
    if (known.includes(key)) continue;
    warnings.push({
      path: member(path, key),
      message: `not a field of A2A v${target} (readers that validate strictly refuse it); left out`,
    });
  }
}

/** The fields of `source` that `known` does not name, to carry into a v0.3 card (which allows them). */
export function extraFields(source: JsonObject, known: readonly string[]): JsonObject {
  return Object.fromEntries(Object.entries(source).filter(([key]) => !known.includes(key)));
}

/** The provider, when it has what both versions require (organization and url); else reported. */
export function providerOf(card: JsonObject, warnings: CardWarning[]): JsonObject {
  const provider = card.provider;
  if (provider === undefined) return {};
  if (isObject(provider) && typeof provider.organization === 'string' && typeof provider.url === 'string') {
    for (const key of Object.keys(provider).filter((key) => key !== 'organization' && key !== 'url')) {
      warnings.push({ path: member('$.provider', key), message: 'not a field of a provider; left out' });
    }
    return { provider: { organization: provider.organization, url: provider.url } };
  }
  warnings.push({
    path: '$.provider',
    message: 'a provider needs organization and url (strings); left out',
  });
  return {};
}

/**
 * The converted card, if it passes the checker for its version; otherwise the conversion is
 * refused with the checker's errors, since a card that fails its own version helps no reader.
 */
export function checkedOutput(card: JsonObject, target: '1.0' | '0.3', warnings: CardWarning[]) {
  const errors = checkCard(card, { version: target }).problems.filter(
    (problem) => problem.severity === 'error',
  );
  if (errors.length === 0) return { card, warnings };
  const listed = errors
    .slice(0, 3)
    .map((problem) => problem.message)
    .join('; ');
  throw new CardsError('NOT_CONVERTIBLE', {
    message: `The v${target} form of this card would not be valid: ${listed}${errors.length > 3 ? ` (and ${errors.length - 3} more)` : ''}. Fix the input card first ("switchboard cards check" lists its problems).`,
  });
}
