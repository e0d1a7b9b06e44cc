import { describe, expect, it } from 'vitest';
import * as semconv from '../src/index.ts';
import {
  a2aSpanName,
  cliSpanName,
  genAiSpanName,
  MESSAGING_OPERATION,
  messagingSpanName,
} from '../src/index.ts';

/** Each table of attribute names, and the namespaces its names may live in. */
const NAMESPACES: Record<string, readonly string[]> = {
  GEN_AI: ['gen_ai'],
  A2A: ['a2a'],
  MESSAGING: ['messaging'],
  COMMON: ['error', 'url', 'server'],
  PROCESS: ['process'],
  RESOURCE: ['service', 'deployment'],
  SWITCHBOARD: ['switchboard'],
};
/** Exported tables of attribute values, not names. */
const VALUE_TABLES = new Set(['MESSAGING_OPERATION']);
/** Lower-case dot-separated words, as OpenTelemetry spells attribute names. */
const WELL_FORMED = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

/** Every exported object, by export name, with its entries. */
const tables = Object.entries(semconv).flatMap(([name, value]) =>
  typeof value === 'object' ? [{ name, entries: Object.entries(value) }] : [],
);
const nameTables = tables.filter(({ name }) => name in NAMESPACES);

describe('the table of attribute names', () => {
  it('knows the namespaces of every table it exports', () => {
    const unknown = tables
      .map(({ name }) => name)
      .filter((name) => !(name in NAMESPACES) && !VALUE_TABLES.has(name));
    expect(unknown, 'a new table: give it its namespaces in this test').toEqual([]);
  });

  it('spells every name well, inside its table’s namespaces; only SWITCHBOARD is ours', () => {
    const misplaced: string[] = [];
    for (const { name: table, entries } of nameTables) {
      for (const [key, value] of entries) {
        const namespace = typeof value === 'string' ? value.split('.')[0] : undefined;
        const ok =
          typeof value === 'string' &&
          WELL_FORMED.test(value) &&
          NAMESPACES[table]?.includes(namespace ?? '') === true &&
          (table === 'SWITCHBOARD') === (namespace === 'switchboard');
        if (!ok) misplaced.push(`${table}.${key} = ${JSON.stringify(value)}`);
      }
    }
    expect(misplaced).toEqual([]);
  });

  it('has every name once', () => {
    const seen = new Map<string, string>();
    const duplicates: string[] = [];
    for (const { name: table, entries } of nameTables) {
      for (const [key, value] of entries) {
        const where = `${table}.${key}`;
        const first = seen.get(String(value));
        if (first) duplicates.push(`${where} repeats ${first} (${String(value)})`);
        else seen.set(String(value), where);
      }
    }
    expect(duplicates).toEqual([]);
  });
});

describe('span names', () => {
  it('follow the conventions: operation and target, the A2A method, operation and queue', () => {
    expect(genAiSpanName({ operation: 'chat', target: 'gpt-4.1-mini' })).toBe('chat gpt-4.1-mini');
    expect(a2aSpanName({ method: 'SendMessage' })).toBe('SendMessage');
    expect(messagingSpanName({ operation: MESSAGING_OPERATION.process, queue: 'a2a.orders' })).toBe(
      'process a2a.orders',
    );
    expect(cliSpanName({ command: 'ask' })).toBe('switchboard ask');
    expect(cliSpanName({ command: '' })).toBe('switchboard');
  });
});
