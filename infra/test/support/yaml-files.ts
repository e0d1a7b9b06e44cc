import { parseAllDocuments } from 'yaml';

/**
 * Every document of a YAML file as plain data, with `<<` merge keys resolved as Compose resolves them.
 * Throws on the first syntax error, naming the file and line.
 */
export function parseYamlDocuments(text: string, file: string): unknown[] {
  return parseAllDocuments(text, { merge: true, prettyErrors: true }).flatMap((document) => {
    const [error] = document.errors;
    if (error) throw new Error(`${file}: ${error.message}`);
    const value: unknown = document.toJS({ maxAliasCount: 100 });
    return value === null || value === undefined ? [] : [value];
  });
}

/** A plain object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
