import { CardsError } from '../errors.ts';
import { type CardVersion, detectCardVersion, isObject, V03_ONLY_FIELDS } from '../json/card-json.ts';
import { describeValue } from '../json/describe-value.ts';
import { REQUIRED_HINTS, V1_RENAMES } from './card-hints.ts';
import { type CardCheck, type CardProblem, error, warning } from './card-problem.ts';
import { cardRules } from './card-rules.ts';
import { cardSchema } from './card-schemas.ts';
import { schemaProblems } from './schema-problems.ts';

/** Options of {@link checkCard}. */
export interface CheckCardOptions {
  /** Check the card as this version instead of the one its fields suggest. */
  version?: '1.0' | '0.3';
}

const result = (version: CardVersion, problems: CardProblem[]): CardCheck => ({
  version,
  valid: !problems.some((problem) => problem.severity === 'error'),
  problems,
});

function check(card: unknown, forced: '1.0' | '0.3' | undefined): CardCheck {
  if (!isObject(card)) {
    return result(forced ?? 'unknown', [
      error({
        rule: 'not-an-object',
        path: '$',
        message: '$ must be a JSON object',
        hint: `It is ${describeValue(card)}. An Agent Card is a JSON object: {"name": ..., "description": ..., "supportedInterfaces": [...], ...}.`,
      }),
    ]);
  }
  const version = forced ?? detectCardVersion(card);
  if (version === 'unknown') {
    return result(version, [
      error({
        rule: 'unknown-version',
        path: '$',
        message: '$ is neither a v1.0 nor a v0.3 Agent Card',
        hint: `A v1.0 card lists its endpoints in supportedInterfaces; a v0.3 card has protocolVersion and url (and may have preferredTransport, additionalInterfaces, supportsAuthenticatedExtendedCard, security). Add the fields of the version you mean, or pass { version } to check against one.`,
      }),
    ]);
  }
  const problems: CardProblem[] = [];
  if (version === 'hybrid') {
    const fields = V03_ONLY_FIELDS.filter((field) => field in card);
    problems.push(
      warning({
        rule: 'hybrid',
        path: '$',
        message: `$ is a hybrid card: v0.3 fields (${fields.join(', ')}) next to supportedInterfaces`,
        hint: 'v0.3 readers accept it, but v1.0 readers that validate strictly refuse the extra fields. Serve the pure v1.0 card (fromV03) to clients that send A2A-Version: 1.0, and this one to the rest.',
      }),
    );
  }
  const schemaVersion = version === '1.0' ? '1.0' : '0.3';
  problems.push(
    ...schemaProblems({
      card,
      schema: cardSchema(schemaVersion),
      renames: schemaVersion === '1.0' ? V1_RENAMES : {},
      requiredHints: REQUIRED_HINTS[schemaVersion],
    }),
    ...cardRules({ card, version }),
  );
  return result(version, problems);
}

/**
 * Checks an Agent Card and says what is wrong, where and how to fix it. The version is detected
 * from the card's fields (or forced with `version`); the card is validated against that version's
 * JSON Schema (a hybrid card against v0.3's, with a warning), then against rules the schema cannot
 * express: unique skill ids, well-formed interface URLs and protocol versions, security
 * requirements that name declared schemes, and consistent capabilities. Never throws for any card.
 *
 * @example
 * const { valid, problems } = checkCard(JSON.parse(body));
 * for (const p of problems) console.warn(`${p.severity}: ${p.message} (${p.hint})`);
 */
export function checkCard(card: unknown, { version }: CheckCardOptions = {}): CardCheck {
  if (version !== undefined && version !== '1.0' && version !== '0.3') {
    throw new CardsError('INVALID_OPTIONS', {
      message: `checkCard: version must be "1.0" or "0.3" (or left out to detect it), not ${describeValue(version)}`,
    });
  }
  try {
    return check(card, version);
  } catch (cause) {
    return result(version ?? 'unknown', [
      error({
        rule: 'check-failed',
        path: '$',
        message: `$ could not be checked: ${cause instanceof Error ? cause.message : 'unknown failure'}`,
        hint: 'Pass plain parsed JSON (JSON.parse output). If it is, this is a bug in checkCard: please report it with the card.',
      }),
    ]);
  }
}
