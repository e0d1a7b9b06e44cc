import type { ErrorObject } from 'ajv';
import { isObject, member } from '../json/card-json.ts';
import { describeValue, quote } from '../json/describe-value.ts';
import { type CardProblem, error } from './card-problem.ts';
import type { CardSchema } from './card-schemas.ts';
import { describeSchemaError, type ErrorTextContext, locate, propertiesOf } from './schema-error-text.ts';

/** What a schema check needs besides the card. */
export interface SchemaProblemsOptions {
  card: unknown;
  schema: CardSchema;
  /** Hints for unknown fields that another version names differently, keyed by field name. */
  renames?: Readonly<Record<string, string>>;
  /** Hints for required top-level fields, keyed by field name. */
  requiredHints?: Readonly<Record<string, string>>;
}

type Context = ErrorTextContext & { schema: CardSchema };

const within = (pointer: string, parent: string) => pointer === parent || pointer.startsWith(`${parent}/`);

/**
 * An anyOf/oneOf failure, explained by the one branch the value meant to take (found by a `const`
 * member, such as v0.3's `type: "apiKey"`), re-validated alone; otherwise one problem for the lot.
 */
function explainAlternatives(e: ErrorObject, ctx: Context): CardProblem[] {
  const { path, value } = locate(ctx.root, e.instancePath);
  const branches = (Array.isArray(e.schema) ? e.schema : []).map((branch) =>
    isObject(branch) && typeof branch.$ref === 'string' ? ctx.schema.resolve(branch.$ref) : undefined,
  );
  const tags = branches.map((fn) =>
    Object.entries(propertiesOf(fn?.schema)).filter(([, spec]) => isObject(spec) && 'const' in spec),
  );
  const chosen = isObject(value)
    ? branches.filter((_, index) =>
        tags[index]?.some(([key, spec]) => isObject(spec) && spec.const === value[key]),
      )
    : [];
  const [only] = chosen;
  if (only && chosen.length === 1 && !only(value)) {
    const errors = (only.errors ?? []).map((inner) => ({
      ...inner,
      instancePath: e.instancePath + inner.instancePath,
    }));
    return translate(errors, ctx);
  }
  const keys = new Set(tags.flatMap((entries) => entries.map(([key]) => key)));
  const [tag] = keys;
  if (
    tag !== undefined &&
    keys.size === 1 &&
    tags.every((entries) => entries.length > 0) &&
    isObject(value)
  ) {
    const values = tags.flatMap((entries) =>
      entries.map(([, spec]) => (isObject(spec) ? spec.const : undefined)),
    );
    const tagPath = member(path, tag);
    return [
      error({
        rule: value[tag] === undefined ? 'schema-required' : 'schema-enum',
        path: tagPath,
        message:
          value[tag] === undefined
            ? `${tagPath} is required`
            : `${tagPath} must be one of ${values.map(quote).join(', ')}`,
        hint: `Set it to one of ${values.map(quote).join(', ')}${value[tag] === undefined ? '' : `; it is ${describeValue(value[tag])}`}.`,
      }),
    ];
  }
  const passing = isObject(e.params) && Array.isArray(e.params.passingSchemas);
  return [
    error({
      rule: 'schema-one-of',
      path,
      message: passing
        ? `${path} matches more than one allowed shape`
        : `${path} matches none of the allowed shapes`,
      hint: `It is ${describeValue(value)}. See the A2A schema for the shapes allowed here.`,
    }),
  ];
}

/** Ajv errors → problems. A failed anyOf/oneOf is preceded by its branches' errors; those are folded in. */
function translate(errors: ErrorObject[], ctx: Context): CardProblem[] {
  const folded = new Set<number>();
  for (let i = errors.length - 1; i >= 0; i--) {
    const e = errors[i];
    if (!e || folded.has(i) || (e.keyword !== 'anyOf' && e.keyword !== 'oneOf')) continue;
    for (let j = i - 1; j >= 0 && within(errors[j]?.instancePath ?? '', e.instancePath); j--) folded.add(j);
  }
  return errors.flatMap((e, i) => {
    if (folded.has(i)) return [];
    return e.keyword === 'anyOf' || e.keyword === 'oneOf'
      ? explainAlternatives(e, ctx)
      : [describeSchemaError(e, ctx)];
  });
}

/** The card checked against one version's JSON Schema, each failure in words, without repeats. */
export function schemaProblems({
  card,
  schema,
  renames = {},
  requiredHints = {},
}: SchemaProblemsOptions): CardProblem[] {
  if (schema.validate(card)) return [];
  const problems = translate([...(schema.validate.errors ?? [])], {
    root: card,
    schema,
    renames,
    requiredHints,
  });
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const key = `${problem.path}\n${problem.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
