import { CardsError } from '../errors.ts';
import { type CardVersion, detectCardVersion, isObject, type JsonObject } from '../json/card-json.ts';
import { describeValue } from '../json/describe-value.ts';
import { REQUIRED_HINTS, V1_RENAMES } from './card-hints.ts';
import { type CardCheck, type CardProblem, type CardReading, error } from './card-problem.ts';
import { mergeReadings, otherVersionProblems, readingView, tagReading } from './card-readings.ts';
import { cardRules } from './card-rules.ts';
import { cardSchema } from './card-schemas.ts';
import { hybridProblems } from './hybrid-rules.ts';
import { schemaProblems } from './schema-problems.ts';

/** Options of {@link checkCard}. */
export interface CheckCardOptions {
  /** Check the card as this version instead of the one its fields suggest. */
  version?: '1.0' | '0.3';
}

const result = (version: CardVersion, readings: CardReading[], problems: CardProblem[]): CardCheck => ({
  version,
  readings,
  valid: !problems.some((problem) => problem.severity === 'error'),
  problems,
});

/** The card against one version's schema and rules. */
function checkAs(card: JsonObject, reading: CardReading): CardProblem[] {
  return [
    ...schemaProblems({
      card,
      schema: cardSchema(reading),
      renames: reading === '1.0' ? V1_RENAMES : {},
      requiredHints: REQUIRED_HINTS[reading],
    }),
    ...cardRules({ card, version: reading }),
    ...(reading === '0.3' ? otherVersionProblems(card) : []),
  ];
}

function check(card: unknown, forced: CardReading | undefined): CardCheck {
  if (!isObject(card)) {
    return result(
      forced ?? 'unknown',
      [],
      [
        error({
          rule: 'not-an-object',
          path: '$',
          message: '$ must be a JSON object',
          hint: `It is ${describeValue(card)}. An Agent Card is a JSON object: {"name": ..., "description": ..., "supportedInterfaces": [...], ...}.`,
        }),
      ],
    );
  }
  const version = forced ?? detectCardVersion(card);
  if (version === 'unknown') {
    return result(
      version,
      [],
      [
        error({
          rule: 'unknown-version',
          path: '$',
          message: '$ is neither a v1.0 nor a v0.3 Agent Card',
          hint: 'A v1.0 card lists its endpoints in supportedInterfaces; a v0.3 card has protocolVersion and url (and may have preferredTransport, additionalInterfaces, supportsAuthenticatedExtendedCard, security). Add the fields of the version you mean, or check it as one with --version 1.0 or --version 0.3.',
        }),
      ],
    );
  }
  if (version !== 'hybrid') return result(version, [version], checkAs(card, version));
  const v1 = tagReading(card, '1.0', checkAs(readingView(card, '1.0'), '1.0'));
  const v03 = tagReading(card, '0.3', checkAs(readingView(card, '0.3'), '0.3'));
  return result(version, ['1.0', '0.3'], [...mergeReadings(v1, v03), ...hybridProblems(card)]);
}

/**
 * Checks an Agent Card and says what is wrong, where and how to fix it. The version is detected
 * from what the card is (or forced with `version`); the card is validated against that version's
 * JSON Schema (a hybrid card, complete in both shapes, is read as each version, and each problem
 * names the reading it belongs to), then against rules the schema cannot
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
    return result(version ?? 'unknown', version ? [version] : [], [
      error({
        rule: 'check-failed',
        path: '$',
        message: `$ could not be checked: ${cause instanceof Error ? cause.message : 'unknown failure'}`,
        hint: 'Check a card read from a JSON file or URL. If it is one, this is a bug in the checker: please report it with the card.',
      }),
    ]);
  }
}
