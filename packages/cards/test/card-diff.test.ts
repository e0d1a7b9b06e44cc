import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type CardChange, diffCards, fromV03, type JsonObject, toV03 } from '../src/index.ts';

const realWorld = fileURLToPath(new URL('./fixtures/cards/real-world/', import.meta.url));

const skill = (id: string, extra: JsonObject = {}) => ({
  id,
  name: id,
  description: `${id}s`,
  tags: [id],
  ...extra,
});

/** A v1.0 card with one interface for each protocol version, bearer auth and two skills. */
const card: JsonObject = {
  name: 'Echo',
  description: 'Echoes',
  supportedInterfaces: [
    { url: 'https://a.example/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    { url: 'https://a.example/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
  ],
  version: '1.2.0',
  capabilities: { streaming: true, pushNotifications: false },
  securitySchemes: {
    bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', description: 'A token' } },
    oauth: {
      oauth2SecurityScheme: {
        flows: { clientCredentials: { tokenUrl: 'https://t', scopes: { read: 'r' } } },
      },
    },
  },
  securityRequirements: [{ schemes: { bearer: { list: [] } } }, { schemes: { oauth: { list: ['read'] } } }],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain', 'application/json'],
  skills: [skill('echo'), skill('shout')],
};

const edit = (changes: JsonObject): JsonObject => ({ ...structuredClone(card), ...changes });
/** `kind path breaking` of each change, the short form most tests compare. */
const summary = (after: JsonObject, before: JsonObject = card) =>
  diffCards(before, after).changes.map((c) => `${c.kind} ${c.path} ${c.breaking ? 'breaking' : 'safe'}`);

describe('diffCards: no changes', () => {
  it('finds none between a card and itself, or a copy with proto defaults written out', () => {
    expect(diffCards(card, structuredClone(card))).toEqual({ changes: [], breaking: false });
    const explicit = edit({
      supportedInterfaces: (card.supportedInterfaces as JsonObject[]).map((entry) => ({
        ...entry,
        tenant: '',
      })),
      capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false, extensions: [] },
      skills: [skill('echo', { examples: [], inputModes: [], securityRequirements: [] }), skill('shout')],
      signatures: [],
    });
    expect(diffCards(card, explicit)).toEqual({ changes: [], breaking: false });
  });

  it('finds none between a v0.3 card and its v1.0 conversion, either way round', () => {
    const files = readdirSync(realWorld).filter((file) => file.endsWith('.json'));
    for (const file of files) {
      const original = JSON.parse(readFileSync(`${realWorld}${file}`, 'utf8')) as JsonObject;
      const converted = fromV03(original).card;
      expect(diffCards(original, converted), file).toEqual({ changes: [], breaking: false });
      expect(diffCards(converted, original), file).toEqual({ changes: [], breaking: false });
    }
    const v03 = toV03(card).card;
    expect(diffCards(v03, fromV03(v03).card).changes).toEqual([]);
  });
});

describe('diffCards: each kind of change', () => {
  it('skills: removed is breaking, added is not, text changes are not, dropped media types are', () => {
    expect(summary(edit({ skills: [skill('echo')] }))).toEqual(['skill-removed $.skills[1] breaking']);
    expect(diffCards(card, edit({ skills: [skill('echo'), skill('shout'), skill('sing')] })).changes).toEqual(
      [{ kind: 'skill-added', path: '$.skills[2]', description: 'skill "sing" added', breaking: false }],
    );
    const reworded = edit({
      skills: [skill('echo', { description: 'Says it back', examples: ['hi'] }), skill('shout')],
    });
    expect(diffCards(card, reworded)).toEqual({
      breaking: false,
      changes: [
        {
          kind: 'skill-changed',
          path: '$.skills[0].description',
          description: 'skill "echo": description changed',
          breaking: false,
        },
        {
          kind: 'skill-changed',
          path: '$.skills[0].examples',
          description: 'skill "echo": examples changed',
          breaking: false,
        },
      ],
    });
    const narrowed = diffCards(
      edit({ skills: [skill('echo', { outputModes: ['text/plain', 'image/png'] }), skill('shout')] }),
      edit({ skills: [skill('echo', { outputModes: ['text/plain'] }), skill('shout')] }),
    );
    expect(narrowed.changes).toEqual([
      {
        kind: 'skill-changed',
        path: '$.skills[0].outputModes',
        description: 'skill "echo" outputModes no longer lists "image/png"',
        breaking: true,
      },
    ]);
  });

  it('interfaces: binding and url removed is breaking, added is not, and a dropped version counts', () => {
    const rest = { url: 'https://a.example/a2a/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' };
    const [first, second] = card.supportedInterfaces as JsonObject[];
    expect(diffCards(card, edit({ supportedInterfaces: [first, second, rest] })).changes).toEqual([
      {
        kind: 'interface-added',
        path: '$.supportedInterfaces[2]',
        description: 'HTTP+JSON at https://a.example/a2a/rest (protocol 1.0) added',
        breaking: false,
      },
    ]);
    expect(diffCards(card, edit({ supportedInterfaces: [first] })).changes).toEqual([
      {
        kind: 'interface-removed',
        path: '$.supportedInterfaces[1]',
        description: 'JSONRPC at https://a.example/a2a/jsonrpc (protocol 0.3) no longer offered',
        breaking: true,
      },
    ]);
    expect(summary(edit({ supportedInterfaces: [rest] }))).toEqual([
      'field-changed $.supportedInterfaces[0] safe',
      'interface-added $.supportedInterfaces[0] safe',
      'interface-removed $.supportedInterfaces[0] breaking',
      'interface-removed $.supportedInterfaces[1] breaking',
    ]);
  });

  it('capabilities: turning one off is breaking, on is not; a newly required extension is breaking', () => {
    expect(summary(edit({ capabilities: { streaming: false, pushNotifications: true } }))).toEqual([
      'capability-changed $.capabilities.pushNotifications safe',
      'capability-changed $.capabilities.streaming breaking',
    ]);
    const extension = { uri: 'urn:x:ext', required: false };
    const withExtension = edit({ capabilities: { streaming: true, extensions: [extension] } });
    expect(summary(withExtension)).toEqual(['capability-changed $.capabilities.extensions[0] safe']);
    expect(
      diffCards(
        withExtension,
        edit({ capabilities: { streaming: true, extensions: [{ ...extension, required: true }] } }),
      ).changes,
    ).toEqual([
      {
        kind: 'capability-changed',
        path: '$.capabilities.extensions[0]',
        description: 'extension "urn:x:ext" now required',
        breaking: true,
      },
    ]);
    expect(summary(card, withExtension)).toEqual([
      'capability-changed $.capabilities.extensions[0] breaking',
    ]);
  });

  it('security: stricter or new requirements and removed or changed schemes are breaking, loosening is not', () => {
    const [bearerOnly, oauthRead] = card.securityRequirements as JsonObject[];
    expect(diffCards(card, edit({ securityRequirements: [oauthRead] })).changes).toEqual([
      {
        kind: 'security-changed',
        path: '$.securityRequirements',
        description: 'security requirements tightened: bearer is no longer accepted',
        breaking: true,
      },
    ]);
    const moreScopes = { schemes: { oauth: { list: ['read', 'write'] } } };
    expect(summary(edit({ securityRequirements: [bearerOnly, moreScopes] }))).toEqual([
      'security-changed $.securityRequirements breaking',
    ]);
    expect(diffCards(card, edit({ securityRequirements: [] })).changes).toEqual([
      {
        kind: 'security-changed',
        path: '$.securityRequirements',
        description: 'security requirements loosened',
        breaking: false,
      },
    ]);
    expect(diffCards(edit({ securityRequirements: [] }), card).changes[0]?.description).toBe(
      'security now required: bearer or oauth [read]',
    );
    const { bearer, oauth } = card.securitySchemes as JsonObject;
    expect(summary(edit({ securitySchemes: { bearer }, securityRequirements: [bearerOnly] }))).toEqual([
      'security-changed $.securityRequirements breaking',
      'security-changed $.securitySchemes.oauth breaking',
    ]);
    const keyInstead = { apiKeySecurityScheme: { location: 'header', name: 'X-Key' } };
    expect(diffCards(card, edit({ securitySchemes: { bearer: keyInstead, oauth } })).changes).toEqual([
      {
        kind: 'security-changed',
        path: '$.securitySchemes.bearer',
        description: 'security scheme "bearer" changed (httpAuthSecurityScheme → apiKeySecurityScheme)',
        breaking: true,
      },
    ]);
    const reworded = { httpAuthSecurityScheme: { scheme: 'Bearer', description: 'An access token' } };
    expect(summary(edit({ securitySchemes: { bearer: reworded, oauth } }))).toEqual([
      'security-changed $.securitySchemes.bearer safe',
    ]);
    const skillLocked = edit({
      skills: [skill('echo', { securityRequirements: [oauthRead] }), skill('shout')],
    });
    expect(diffCards(card, skillLocked).changes).toEqual([
      {
        kind: 'security-changed',
        path: '$.skills[0].securityRequirements',
        description: 'skill "echo": security now required: oauth [read]',
        breaking: true,
      },
    ]);
  });

  it('other fields: names and descriptions are safe, dropped default media types are breaking', () => {
    expect(
      diffCards(card, edit({ name: 'Echo Pro', documentationUrl: 'https://docs.example' })).changes,
    ).toEqual([
      {
        kind: 'field-changed',
        path: '$.documentationUrl',
        description: 'documentationUrl added',
        breaking: false,
      },
      {
        kind: 'field-changed',
        path: '$.name',
        description: 'name changed from "Echo" to "Echo Pro"',
        breaking: false,
      },
    ]);
    expect(diffCards(card, edit({ defaultOutputModes: ['text/plain'] }))).toEqual({
      breaking: true,
      changes: [
        {
          kind: 'field-changed',
          path: '$.defaultOutputModes',
          description: 'defaultOutputModes no longer lists "application/json"',
          breaking: true,
        },
      ],
    });
  });
});

describe('diffCards: across versions, in a stable order', () => {
  it('compares a v0.3 card with a v1.0 one by meaning (the v0.3 form lists only the 0.3 interface)', () => {
    const before = toV03(card).card;
    const after = edit({ skills: [skill('echo')], capabilities: { streaming: false } });
    expect(summary(after, before)).toEqual([
      'capability-changed $.capabilities.streaming breaking',
      'skill-removed $.skills[1] breaking',
      'field-changed $.supportedInterfaces[0] safe',
      'interface-added $.supportedInterfaces[0] safe',
    ]);
  });

  it('sorts by path, then kind, then description, whatever the order of the input', () => {
    const after = edit({
      skills: [skill('sing'), skill('echo', { name: 'Echo!' })],
      name: 'Echo 2',
      capabilities: { pushNotifications: true },
      securitySchemes: {},
      securityRequirements: [],
    });
    const { changes } = diffCards(card, after);
    const key = (c: CardChange) => `${c.path}\u0000${c.kind}\u0000${c.description}`;
    expect(changes.map(key)).toEqual(changes.map(key).sort());
    const shuffled = Object.fromEntries(Object.entries(after).reverse());
    expect(diffCards(card, shuffled)).toEqual(diffCards(card, after));
    expect(changes.length).toBe(9);
  });
});
