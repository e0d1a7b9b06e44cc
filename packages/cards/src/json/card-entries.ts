import { isObject, type JsonObject } from './card-json.ts';

/** Entries of an array with their index, objects only (anything else reads as empty). */
export const indexed = (value: unknown): [JsonObject, number][] =>
  Array.isArray(value)
    ? value.flatMap((item, index): [JsonObject, number][] => (isObject(item) ? [[item, index]] : []))
    : [];

/** A key for comparing entries, or none when a part is not a string (the schema reports those). */
export const keyOf = (values: unknown[]): string | undefined =>
  values.every((value) => typeof value === 'string') ? values.join('\n') : undefined;
