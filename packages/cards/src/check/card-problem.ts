import type { CardVersion } from '../json/card-json.ts';

/** Every rule {@link checkCard} applies, with what it checks. A problem names its rule. */
export const CARD_RULES = {
  'not-an-object': 'The card must be a JSON object.',
  'unknown-version': 'The card must have the fields that identify v1.0 or v0.3.',
  hybrid:
    'A hybrid card (v1.0 and v0.3 in one) must read cleanly as each: every field in the form its readers need.',
  'other-version-field': 'A field of the other A2A version, which readers of this version ignore.',
  'check-failed': 'The check itself failed: a getter on the card threw, or a schema could not load.',
  'schema-required': 'A field the schema (or, for v1.0, the proto) requires is missing.',
  'schema-type': 'A field has the wrong JSON type.',
  'schema-unknown-field': 'A field the schema does not allow.',
  'schema-enum': 'A field must have one of a few fixed values.',
  'schema-one-of': 'An object must take exactly one of several shapes.',
  schema: 'Any other schema violation.',
  'duplicate-skill-id': 'Skill ids must be unique.',
  'empty-skills': 'A card without skills tells clients nothing the agent can do.',
  'media-type': 'Input and output modes are media types such as text/plain.',
  'no-interface': 'A card must list at least one interface.',
  'duplicate-interface': 'The same interface should be listed once.',
  'interface-url': 'JSONRPC and HTTP+JSON interfaces need an http(s) URL, others an absolute URI.',
  'plain-http': 'Production endpoints should use https.',
  'custom-binding': 'A binding other than JSONRPC, HTTP+JSON and GRPC should be a URI.',
  'main-url-not-listed': 'v0.3 additionalInterfaces should repeat the main url and transport.',
  'unknown-security-scheme': 'Security requirements must name schemes declared in securitySchemes.',
  'agent-version': "The agent's own version should look like a version number (1.2.0).",
  'protocol-version': 'Protocol versions: Major.Minor on v1.0 interfaces, like 0.3.0 on v0.3 cards.',
  'extended-card-without-security': 'An extended card is served to authenticated clients; say how.',
} as const;

/** The id of a rule in {@link CARD_RULES}. */
export type CardRule = keyof typeof CARD_RULES;

/** One thing wrong with a card, where it is and how to fix it. */
export interface CardProblem {
  /** `error`: readers may refuse the card. `warning`: legal, but likely to cause trouble. */
  severity: 'error' | 'warning';
  rule: CardRule;
  /** JSONPath of the field, e.g. `$.skills[2].id`; `$` for the card as a whole. */
  path: string;
  /** What is wrong, naming the path, e.g. `$.protocolVersion is required`. */
  message: string;
  /** How to fix it. */
  hint: string;
  /**
   * The reading the problem belongs to, when the card is checked under two (a hybrid card is read
   * as v1.0 and as v0.3); absent when it holds for every reading.
   */
  reading?: CardReading;
}

/** A version a card is read (checked) as. */
export type CardReading = '1.0' | '0.3';

/** The result of {@link checkCard}. */
export interface CardCheck {
  /** The version the card was checked as: the one forced, or the one detected. */
  version: CardVersion;
  /** The readings it was checked under: one, or both for a hybrid card; none for a non-card. */
  readings: CardReading[];
  /** True when there is no problem of severity `error`. */
  valid: boolean;
  problems: CardProblem[];
}

/** A problem without its severity, as rules build them. */
export type ProblemFields = Omit<CardProblem, 'severity'>;

/** A problem of severity `error`. */
export const error = (fields: ProblemFields): CardProblem => ({ severity: 'error', ...fields });

/** A problem of severity `warning`. */
export const warning = (fields: ProblemFields): CardProblem => ({ severity: 'warning', ...fields });
