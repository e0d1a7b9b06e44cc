import type { JsonSchema } from '../model/messages.ts';

/**
 * Prepares a JSON Schema for `json_schema` strict mode, which requires every object to list all its
 * properties as required and to forbid additional ones. Returns `strict: false` (and the schema as
 * it is) when an optional property makes strict mode impossible without changing the meaning.
 */
export function toStrictSchema(schema: JsonSchema): { schema: JsonSchema; strict: boolean } {
  let strict = true;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) out[key] = walk(value);
    if (out.type === 'object' && out.properties && typeof out.properties === 'object') {
      const keys = Object.keys(out.properties);
      const required = Array.isArray(out.required) ? out.required : [];
      if (keys.some((key) => !required.includes(key))) strict = false;
      out.additionalProperties = false;
    }
    return out;
  };
  const prepared = walk(schema) as JsonSchema;
  return strict ? { schema: prepared, strict } : { schema, strict };
}
