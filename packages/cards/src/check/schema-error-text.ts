import type { ErrorObject } from 'ajv';
import { isObject, member } from '../json/card-json.ts';
import { describeValue, firstSentence, quote } from '../json/describe-value.ts';
import { type CardProblem, error } from './card-problem.ts';

/** What turning an Ajv error into words needs. */
export interface ErrorTextContext {
  /** The card, to read values and tell array indexes from keys. */
  root: unknown;
  /** Hints for unknown fields that another version names differently, keyed by field name. */
  renames: Readonly<Record<string, string>>;
  /** Hints for required top-level fields, keyed by field name. */
  requiredHints: Readonly<Record<string, string>>;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  null: 'null',
};

/** Where a JSON Pointer leads in the card: its JSONPath and the value there. */
export function locate(root: unknown, pointer: string): { path: string; value: unknown } {
  let path = '$';
  let value = root;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(value)) {
      path += `[${key}]`;
      value = value[Number(key)];
    } else {
      path = member(path, key);
      value = isObject(value) ? value[key] : undefined;
    }
  }
  return { path, value };
}

/** The `properties` of a schema object, or none. */
export const propertiesOf = (schema: unknown): Record<string, unknown> =>
  isObject(schema) && isObject(schema.properties) ? schema.properties : {};

const typeNames = (type: unknown) =>
  (Array.isArray(type) ? type : [type]).map((name) => TYPE_NAMES[String(name)] ?? String(name)).join(' or ');

/** "Add the field", with its type, the schema's first sentence about it and its example. */
function requiredHint(field: string, e: ErrorObject): string {
  const spec = propertiesOf(e.parentSchema)[field];
  if (!isObject(spec)) return `Add "${field}".`;
  const example = Array.isArray(spec.examples) ? spec.examples[0] : spec.default;
  const type = spec.type ? ` (${typeNames(spec.type)})` : '';
  const about = typeof spec.description === 'string' ? `: ${firstSentence(spec.description)}` : '.';
  const sample = example !== undefined && example !== '' ? ` Example: ${JSON.stringify(example)}` : '';
  return `Add "${field}"${type}${about}${sample}`;
}

/** One Ajv error (other than anyOf/oneOf, which schema-problems.ts explains) as a problem in words. */
export function describeSchemaError(e: ErrorObject, ctx: ErrorTextContext): CardProblem {
  const { path, value } = locate(ctx.root, e.instancePath);
  const params: Record<string, unknown> = e.params;
  const allowed = Object.keys(propertiesOf(e.parentSchema));
  switch (e.keyword) {
    case 'required': {
      const field = String(params.missingProperty);
      const hint = (e.instancePath === '' ? ctx.requiredHints[field] : undefined) ?? requiredHint(field, e);
      return error({
        rule: 'schema-required',
        path: member(path, field),
        message: `${member(path, field)} is required`,
        hint,
      });
    }
    case 'type':
      return error({
        rule: 'schema-type',
        path,
        message: `${path} must be ${typeNames(params.type)}`,
        hint: `It is ${describeValue(value)}; write ${typeNames(params.type)} instead.`,
      });
    case 'additionalProperties': {
      const field = String(params.additionalProperty);
      return error({
        rule: 'schema-unknown-field',
        path: member(path, field),
        message: `${member(path, field)} is an unknown field`,
        hint:
          ctx.renames[field] ?? `Remove it or correct its name. Fields allowed here: ${allowed.join(', ')}.`,
      });
    }
    case 'enum':
    case 'const': {
      const values =
        e.keyword === 'enum' && Array.isArray(params.allowedValues)
          ? params.allowedValues
          : [params.allowedValue];
      return error({
        rule: 'schema-enum',
        path,
        message: `${path} must be ${values.length > 1 ? 'one of ' : ''}${values.map(quote).join(', ')}`,
        hint: `It is ${describeValue(value)}.`,
      });
    }
    case 'minProperties':
    case 'maxProperties': {
      const set = isObject(value) ? Object.keys(value) : [];
      const known = set.filter((key) => allowed.includes(key));
      return error({
        rule: 'schema-one-of',
        path,
        message: `${path} must set exactly one of ${allowed.join(', ')}`,
        hint:
          known.length > 1
            ? `It sets ${known.join(', ')}; keep one (declare another entry for the rest).`
            : known.length === 1
              ? `Remove ${set.filter((key) => !allowed.includes(key)).join(', ')}.`
              : `It sets none of them${set.length > 0 ? ` (it has ${set.join(', ')})` : ''}.`,
      });
    }
    default:
      return error({
        rule: 'schema',
        path,
        message: `${path} ${e.message ?? 'is not valid'}`,
        hint: 'See the A2A schema for this field.',
      });
  }
}
