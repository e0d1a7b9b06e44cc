import type { JsonSchema } from '@switchboard/agent';
import { contentTokens } from '@switchboard/agent/lexical';
import { findCued } from './cue-phrases.ts';
import { acceptsValue, type ObjectView, type PropertyView, readObjectSchema } from './schema-view.ts';
import {
  type Found,
  findDates,
  findDateTimes,
  findEmails,
  findLabelled,
  findNumbers,
  findPattern,
  findPhrase,
  findQuoted,
  findUrls,
  type Word,
  words,
} from './text-extract.ts';

/** Values already known in the conversation, by normalised key (`order_id` and `orderId` → `orderid`). */
export type KnownValues = ReadonlyMap<string, readonly unknown[]>;

/** What arguments are filled from. */
export interface FillSource {
  /** The user's request. */
  text: string;
  /** Values from earlier successful tool results and their arguments, most recent first. */
  known?: KnownValues;
  /** The current time, for "today" and "tomorrow". */
  now: Date;
}

/** The outcome of filling an object schema. */
export interface FillResult {
  /** The filled values, in the schema's property order. */
  values: Record<string, unknown>;
  /** Required properties that could not be filled. */
  missing: PropertyView[];
  /** Names of the properties filled from earlier results rather than the request. */
  fromKnown: ReadonlySet<string>;
}

/** Lower-cases a key and drops separators, so `order_id`, `orderId` and `OrderID` compare equal. */
export function normaliseKey(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Hands out text values so two properties of one schema never take the same occurrence. */
class Claims {
  readonly #taken = new Set<string>();

  first<T>(kind: string, found: readonly Found<T>[], accept: (value: T) => boolean): T | undefined {
    const hit = found.find((item) => !this.#taken.has(`${kind}:${item.start}`) && accept(item.value));
    if (hit) this.#taken.add(`${kind}:${hit.start}`);
    return hit?.value;
  }
}

const NAME_LIKE = /(name|product|item|title|subject|address|city|street|company|brand|model)$/i;

/** Numbers ranked by how near they are to the property's own words ("urgency 4", "quantity: 2"). */
function numbersNear(property: PropertyView, text: string): Found<number>[] {
  const label = new Set(contentTokens(`${property.name} ${property.description ?? ''}`));
  const closeness = (item: Found<number>): number =>
    contentTokens(text.slice(Math.max(0, item.start - 24), item.start + 24)).filter((t) => label.has(t))
      .length;
  return findNumbers(text)
    .map((item) => ({ item, near: closeness(item) }))
    .sort((a, b) => b.near - a.near || a.item.start - b.item.start)
    .map(({ item }) => item);
}

function enumFromText(property: PropertyView, all: readonly Word[]): unknown {
  const mentions = (property.enum ?? [])
    .filter((value): value is string => typeof value === 'string')
    .flatMap((value) => findPhrase(value, all).map((found) => ({ ...found, value, positive: found.value })))
    .filter((found) => found.positive)
    .sort((a, b) => a.start - b.start);
  return mentions[0]?.value;
}

function booleanFromText(property: PropertyView, text: string, all: readonly Word[]): boolean | undefined {
  const labelled = findLabelled(property.name, text)[0]?.value.toLowerCase();
  if (labelled && /^(yes|true|y|on)\b/.test(labelled)) return true;
  if (labelled && /^(no|false|n|off)\b/.test(labelled)) return false;
  return findPhrase(property.name, all)[0]?.value;
}

function stringFromText(property: PropertyView, text: string, source: FillSource, claims: Claims) {
  const accept = (value: string) => acceptsValue(property, value);
  switch (property.format) {
    case 'date':
      return claims.first('date', findDates(text, source.now), accept);
    case 'date-time':
      return claims.first('datetime', findDateTimes(text), accept);
    case 'email':
      return claims.first('email', findEmails(text), accept);
    case 'uri':
    case 'url':
      return claims.first('url', findUrls(text), accept);
  }
  if (property.pattern)
    return claims.first(`pattern:${property.pattern}`, findPattern(property.pattern, text), accept);
  if (/e-?mail/i.test(property.name)) return claims.first('email', findEmails(text), accept);
  return (
    claims.first('label', findLabelled(property.name, text), accept) ??
    claims.first('cued', findCued(property.name, text), accept) ??
    (NAME_LIKE.test(property.name) || property.type === 'string'
      ? claims.first('quoted', findQuoted(text), accept)
      : undefined)
  );
}

function arrayFromText(property: PropertyView, text: string, all: readonly Word[]): unknown[] | undefined {
  const items = property.items;
  if (!items) return undefined;
  let values: unknown[] = [];
  if (items.enum) {
    values = items.enum.filter(
      (value) => typeof value === 'string' && findPhrase(value, all).some((f) => f.value),
    );
  } else if (items.pattern) {
    values = [...new Set(findPattern(items.pattern, text).map((found) => found.value))];
  }
  return values.length > 0 && acceptsValue(property, values) ? values : undefined;
}

function fromText(property: PropertyView, source: FillSource, all: readonly Word[], claims: Claims): unknown {
  const { text } = source;
  if (property.type === 'array') return arrayFromText(property, text, all);
  if (property.enum?.some((value) => typeof value === 'string')) {
    const value = enumFromText(property, all);
    return acceptsValue(property, value) ? value : undefined;
  }
  switch (property.type) {
    case 'integer':
    case 'number':
      return claims.first('number', numbersNear(property, text), (value) => acceptsValue(property, value));
    case 'boolean':
      return booleanFromText(property, text, all);
    case 'string':
    case undefined:
      return stringFromText(property, text, source, claims);
    default:
      return undefined;
  }
}

/**
 * A required string property named `request` is a free-text request to hand on (delegation tools
 * take one): it gets the user's whole request, never a quoted or labelled fragment of it.
 */
function wholeRequest(property: PropertyView, view: ObjectView, text: string): string | undefined {
  if (property.name !== 'request' || property.type !== 'string' || !view.required.has(property.name)) {
    return undefined;
  }
  const request = text.trim();
  return request && acceptsValue(property, request) ? request : undefined;
}

function fromKnown(property: PropertyView, known: KnownValues | undefined): unknown {
  return known?.get(normaliseKey(property.name))?.find((value) => acceptsValue(property, value));
}

/** Specific evidence first: patterns, enums and formats claim their text before loose numbers and quotes. */
function fillOrder(view: ObjectView): PropertyView[] {
  const rank = (p: PropertyView) => (p.pattern || p.enum || p.format ? 0 : p.type === 'string' ? 2 : 1);
  return [...view.properties].sort((a, b) => rank(a) - rank(b));
}

/**
 * Fills the properties of an object schema from a request text and known values: patterns (case
 * normalised), enum mentions, numbers within range, ISO or relative dates, yes/no cues, emails,
 * labelled strings, places after a cue word ("from Paris" for `from`, "in Lisbon" for `city`), quoted
 * strings, and a required string `request` with the whole request text. The
 * request wins over known values; what cannot be found is
 * left out.
 *
 * @example
 * fillArguments(getOrderSchema, { text: 'where is a20417?', now: new Date() }).values // { orderId: 'A20417' }
 */
export function fillArguments(schema: JsonSchema, source: FillSource): FillResult {
  const view = readObjectSchema(schema);
  const all = words(source.text);
  const claims = new Claims();
  const found = new Map<string, unknown>();
  const known = new Set<string>();
  for (const property of fillOrder(view)) {
    const value = wholeRequest(property, view, source.text) ?? fromText(property, source, all, claims);
    if (value !== undefined) {
      found.set(property.name, value);
      continue;
    }
    const remembered = fromKnown(property, source.known);
    if (remembered !== undefined) {
      found.set(property.name, remembered);
      known.add(property.name);
    }
  }
  const values: Record<string, unknown> = {};
  for (const property of view.properties) {
    if (found.has(property.name)) values[property.name] = found.get(property.name);
  }
  const missing = view.properties.filter((p) => view.required.has(p.name) && !found.has(p.name));
  return { values, missing, fromKnown: known };
}
