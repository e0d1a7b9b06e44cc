import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  type CardProblem,
  CardsError,
  type CardVersion,
  cardVersionLabel,
  checkCard,
  fromV03,
  isCardsError,
  type JsonObject,
  toV03,
} from '../src/index.ts';
import { v03 } from './support/worked-example.ts';

const pick = (card: JsonObject, fields: string[]) =>
  Object.fromEntries(fields.filter((field) => field in card).map((field) => [field, card[field]]));

const realWorld = fileURLToPath(new URL('./fixtures/cards/real-world/', import.meta.url));
const fixture = (name: string) => JSON.parse(readFileSync(`${realWorld}${name}.json`, 'utf8')) as JsonObject;

/** The worked example (test/support/worked-example.ts), with its interfaces listed for protocol 1.0. */
const { supportedInterfaces: _, ...v1Rest } = fromV03(v03).card;
const v1: JsonObject = {
  ...v1Rest,
  supportedInterfaces: [
    { url: 'https://a.example/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    { url: 'https://a.example/a2a/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
  ],
  capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false },
};

/** `severity rule path` of each problem, the short form most tests compare. */
const summary = (card: unknown, options?: { version?: '1.0' | '0.3' }) =>
  checkCard(card, options).problems.map((p) => `${p.severity} ${p.rule} ${p.path}`);
const only = (card: unknown, rule: string): CardProblem[] =>
  checkCard(card).problems.filter((problem) => problem.rule === rule);

describe('checkCard: valid cards', () => {
  it('passes the worked example in both versions, and both conversions of it', () => {
    const clean = (version: '1.0' | '0.3') => ({ version, readings: [version], valid: true, problems: [] });
    expect(checkCard(v03)).toEqual(clean('0.3'));
    expect(checkCard(v1)).toEqual(clean('1.0'));
    expect(checkCard(fromV03(v03).card)).toEqual(clean('1.0'));
    expect(checkCard(toV03(v1).card)).toEqual(clean('0.3'));
  });

  it('reads a deliberate hybrid card as v1.0 and as v0.3, clean on each', () => {
    const { card: asV03 } = toV03(v1);
    const bearer = { type: 'http', scheme: 'Bearer', httpAuthSecurityScheme: { scheme: 'Bearer' } };
    const hybrid = {
      ...v1,
      ...pick(asV03, ['protocolVersion', 'url', 'preferredTransport', 'additionalInterfaces']),
      securitySchemes: { bearer },
      securityRequirements: [{ schemes: { bearer: { list: [] } } }],
      security: [{ bearer: [] }],
    };
    expect(checkCard(hybrid)).toEqual({
      version: 'hybrid',
      readings: ['1.0', '0.3'],
      valid: true,
      problems: [],
    });
  });

  it('names the reading each problem of a hybrid card belongs to, with hints that keep the other form', () => {
    const { card: asV03 } = toV03(v1);
    const hybrid = {
      ...v1,
      ...pick(asV03, ['protocolVersion', 'url', 'preferredTransport', 'additionalInterfaces']),
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
      securityRequirements: [{ schemes: { bearer: { list: [] } } }],
      skills: [
        { id: 'a', name: 'A', description: 'a', tags: [] },
        { id: 'a', name: 'B', tags: [] },
      ],
      url: 'ftp://a.example/rpc',
    };
    const result = checkCard(hybrid);
    expect(result).toMatchObject({ version: 'hybrid', readings: ['1.0', '0.3'], valid: false });
    expect(result.problems.map((p) => `${p.severity} ${p.rule} ${p.path} ${p.reading ?? 'both'}`)).toEqual([
      'error schema-required $.skills[1].description both',
      'error duplicate-skill-id $.skills[1].id both',
      'error interface-url $.url 0.3',
      'warning main-url-not-listed $.additionalInterfaces 0.3',
      'warning hybrid $.securitySchemes.bearer 0.3',
      'warning hybrid $.securityRequirements both',
    ]);
    const scheme = result.problems.find((p) => p.rule === 'hybrid' && p.reading === '0.3');
    expect(scheme?.message).toBe(
      '$.securitySchemes.bearer has only its v1.0 form, which v0.3 readers that validate the card refuse (as v0.3)',
    );
    expect(scheme?.hint).toMatch(/add "type" and its fields beside the v1\.0 form/);
    expect(result.problems.find((p) => p.rule === 'interface-url')?.message).toBe(
      '$.url must be an absolute http(s) URL for the JSONRPC binding (as v0.3)',
    );
  });
});

describe('checkCard: which version a card is', () => {
  const rules = (card: unknown) =>
    checkCard(card)
      .problems.filter((p) => p.severity === 'error')
      .map((p) => `${p.rule} ${p.path}`);

  it('reads a v1.0 card with a stray v0.3 field as v1.0, and never asks for url or "0.3.0"', () => {
    // The A2A v1.0.1 specification's own sample card writes `security` (v0.3) for securityRequirements.
    const { securityRequirements: requirements, ...rest } = v1;
    const strays: JsonObject[] = [
      { ...v1, protocolVersion: '1.0' },
      { ...v1, protocolVersion: '0.3.0' },
      {
        ...rest,
        security: [{ bearer: [] }],
        securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
      },
      { ...v1, url: 'https://a.example/a2a/jsonrpc' },
      { ...v1, url: 'https://a.example/a2a/jsonrpc', protocolVersion: '1.0' },
    ];
    expect(requirements).toBeUndefined();
    expect(strays.map((card) => [checkCard(card).version, ...rules(card)])).toEqual([
      ['1.0', 'schema-unknown-field $.protocolVersion'],
      ['1.0', 'schema-unknown-field $.protocolVersion'],
      ['1.0', 'schema-unknown-field $.security'],
      ['1.0', 'schema-unknown-field $.url'],
      ['1.0', 'schema-unknown-field $.url', 'schema-unknown-field $.protocolVersion'],
    ]);
    const hints = strays.flatMap((card) => checkCard(card).problems.map((p) => p.hint));
    expect(hints.join('\n')).not.toMatch(/Add "url"|Add "protocolVersion": "0\.3\.0"/);
    expect(checkCard(strays[2]).problems[0]?.hint).toMatch(/securityRequirements/);
  });

  it('reads a card without supportedInterfaces by what it has: url or "0.3.x" for v0.3, v1.0-only fields for v1.0', () => {
    const { supportedInterfaces: _i, ...bare } = v1;
    expect(checkCard({ ...bare, protocolVersion: '1.0' }).version).toBe('1.0');
    expect(checkCard({ ...bare, securityRequirements: [] }).version).toBe('1.0');
    expect(checkCard({ ...bare, capabilities: { extendedAgentCard: false } }).version).toBe('1.0');
    expect(rules({ ...bare, protocolVersion: '1.0' })).toEqual([
      'schema-required $.supportedInterfaces',
      'schema-unknown-field $.protocolVersion',
    ]);
    const { url: _u, ...noUrl } = v03;
    expect(checkCard(noUrl)).toMatchObject({ version: '0.3', readings: ['0.3'] });
    expect(rules(noUrl)).toEqual(['schema-required $.url']);
  });

  it('flags v1.0 fields in a v0.3 card as stray, with their v0.3 names', () => {
    const card = {
      ...v03,
      securityRequirements: [{ schemes: { m: { list: [] } } }],
      securitySchemes: { m: { type: 'mutualTLS' } },
      capabilities: { extendedAgentCard: true },
      skills: [{ id: 'a', name: 'A', description: 'a', tags: [], securityRequirements: [] }],
    };
    const result = checkCard(card);
    expect(result).toMatchObject({ version: '0.3', valid: true });
    expect(result.problems.map((p) => `${p.rule} ${p.path}`)).toEqual([
      'other-version-field $.securityRequirements',
      'other-version-field $.capabilities.extendedAgentCard',
      'other-version-field $.skills[0].securityRequirements',
    ]);
    expect(result.problems[0]?.hint).toBe(
      'v0.3 readers ignore it: v0.3 calls it security, written [{"<scheme>": ["<scope>"]}].',
    );
  });

  it('names each version in words, for the CLI', () => {
    expect(['1.0', '0.3', 'hybrid', 'unknown'].map((v) => cardVersionLabel(v as CardVersion))).toEqual([
      'v1.0 card',
      'v0.3 card',
      'hybrid card (read as v1.0 and as v0.3)',
      'not an A2A card',
    ]);
  });
});

describe('checkCard: real-world cards from the A2A samples', () => {
  it('says exactly what the a2a_mcp air ticketing card lacks', () => {
    const result = checkCard(fixture('a2a_mcp__agent_cards__air_ticketing_agent'));
    expect(result).toEqual({
      version: '0.3',
      readings: ['0.3'],
      valid: false,
      problems: [
        {
          severity: 'error',
          rule: 'schema-required',
          path: '$.protocolVersion',
          message: '$.protocolVersion is required',
          hint: 'Add "protocolVersion": "0.3.0", the A2A protocol version this card speaks.',
        },
        {
          severity: 'warning',
          rule: 'media-type',
          path: '$.defaultInputModes[0]',
          message: '$.defaultInputModes[0] "text" is not a media type',
          hint: 'Write a media type such as "text/plain" or "application/json" ("text/plain" here).',
        },
        expect.objectContaining({ rule: 'media-type', path: '$.defaultOutputModes[0]' }),
      ],
    });
  });

  it('says a v1.0 sample card is no v0.3 card: protocolVersion and url are required', () => {
    const card = fixture('adk_skills_agent__src__skills_agent__agent_card');
    expect(checkCard(card).valid).toBe(true);
    const asV03 = checkCard(card, { version: '0.3' });
    expect(asV03.problems.filter((p) => p.severity === 'error').map((p) => p.message)).toEqual([
      '$.protocolVersion is required',
      '$.url is required',
    ]);
    expect(asV03.problems.find((p) => p.path === '$.url')?.hint).toMatch(
      /endpoint of the preferred transport/,
    );
  });

  it('checks every real-world card without throwing; each a2a_mcp card misses only protocolVersion', () => {
    const files = readdirSync(realWorld).filter((file) => file.endsWith('.json'));
    expect(files.length).toBe(7);
    for (const file of files) {
      const result = checkCard(JSON.parse(readFileSync(`${realWorld}${file}`, 'utf8')));
      const errors = result.problems.filter((p) => p.severity === 'error').map((p) => p.message);
      if (file.startsWith('a2a_mcp')) expect(errors, file).toEqual(['$.protocolVersion is required']);
      else expect(errors, file).toEqual([]);
    }
  });
});

describe('checkCard: schema problems in words', () => {
  it('names the field, the expected type and what was found', () => {
    const card = { ...v03, url: 5, capabilities: { streaming: 'yes' }, skills: [{ id: 'a', name: 'A' }] };
    const problems = checkCard(card).problems;
    expect(problems).toContainEqual({
      severity: 'error',
      rule: 'schema-type',
      path: '$.url',
      message: '$.url must be a string',
      hint: 'It is the number 5; write a string instead.',
    });
    expect(problems).toContainEqual(
      expect.objectContaining({
        path: '$.capabilities.streaming',
        message: '$.capabilities.streaming must be true or false',
      }),
    );
    expect(problems.filter((p) => p.rule === 'schema-required').map((p) => p.message)).toEqual([
      '$.skills[0].description is required',
      '$.skills[0].tags is required',
    ]);
  });

  it('explains a failed v0.3 security scheme by its type alone, without anyOf noise', () => {
    const card = {
      ...v03,
      securitySchemes: { key: { type: 'apiKey', in: 'body' }, odd: { type: 'kerberos' }, bare: {} },
    };
    expect(checkCard(card).problems.map((p) => p.message)).toEqual([
      '$.securitySchemes.key.name is required',
      '$.securitySchemes.key.in must be one of "cookie", "header", "query"',
      '$.securitySchemes.odd.type must be one of "apiKey", "http", "oauth2", "openIdConnect", "mutualTLS"',
      '$.securitySchemes.bare.type is required',
    ]);
  });

  it('holds v1.0 cards to the proto: required fields, one variant per oneof, v0.3 names explained', () => {
    const { version: _v, ...noVersion } = v1;
    expect(summary(noVersion)).toEqual(['error schema-required $.version']);
    const card = {
      ...v1,
      securitySchemes: {
        both: { apiKeySecurityScheme: { location: 'header', name: 'k' }, mtlsSecurityScheme: {} },
        old: { type: 'http', scheme: 'Bearer' },
      },
      security: [{ both: [] }],
    };
    expect(checkCard(card).version).toBe('1.0');
    const problems = checkCard(card, { version: '1.0' }).problems;
    expect(problems).toContainEqual(
      expect.objectContaining({
        rule: 'schema-one-of',
        path: '$.securitySchemes.both',
        hint: 'It sets apiKeySecurityScheme, mtlsSecurityScheme; keep one (declare another entry for the rest).',
      }),
    );
    expect(problems).toContainEqual(
      expect.objectContaining({
        rule: 'schema-unknown-field',
        path: '$.security',
        hint: expect.stringContaining('securityRequirements'),
      }),
    );
    expect(problems).toContainEqual(
      expect.objectContaining({
        path: '$.securitySchemes.old.type',
        hint: expect.stringContaining('httpAuthSecurityScheme'),
      }),
    );
    const { supportedInterfaces: _i, ...noInterfaces } = v1;
    expect(checkCard(noInterfaces, { version: '1.0' }).problems).toEqual([
      expect.objectContaining({
        message: '$.supportedInterfaces is required',
        hint: expect.stringContaining('"protocolBinding": "JSONRPC"'),
      }),
    ]);
  });
});

describe('checkCard: rules beyond the schema', () => {
  const iface = (url: string, protocolBinding = 'JSONRPC', protocolVersion = '1.0') => ({
    url,
    protocolBinding,
    protocolVersion,
  });

  it('skills: unique ids, and at least one skill', () => {
    const skill = { id: 'echo', name: 'E', description: 'e', tags: [] };
    expect(only({ ...v1, skills: [skill, { ...skill, id: 'other' }, skill] }, 'duplicate-skill-id')).toEqual([
      {
        severity: 'error',
        rule: 'duplicate-skill-id',
        path: '$.skills[2].id',
        message: '$.skills[2].id "echo" repeats $.skills[0].id',
        hint: 'Give every skill its own id: clients refer to skills by id.',
      },
    ]);
    expect(summary({ ...v1, skills: [] })).toEqual(['warning empty-skills $.skills']);
  });

  it('interface URLs: http(s) for JSONRPC and HTTP+JSON, any absolute URI for custom bindings', () => {
    const card = {
      ...v1,
      supportedInterfaces: [
        iface('a.example/rpc'),
        iface('ftp://a.example/rest', 'HTTP+JSON'),
        iface('bullmq://queue/echo', 'https://example.com/bindings/bullmq/v1'),
        iface('not a uri', 'https://example.com/bindings/bullmq/v1'),
        iface('http://agent.example/rpc'),
        iface('http://localhost:8080/rpc', 'HTTP+JSON'),
      ],
    };
    expect(summary(card)).toEqual([
      'error interface-url $.supportedInterfaces[0].url',
      'error interface-url $.supportedInterfaces[1].url',
      'error interface-url $.supportedInterfaces[3].url',
      'warning plain-http $.supportedInterfaces[4].url',
    ]);
    expect(only(card, 'interface-url')[0]).toMatchObject({
      message: '$.supportedInterfaces[0].url must be an absolute http(s) URL for the JSONRPC binding',
      hint: expect.stringContaining('"https://agent.example/a2a/jsonrpc"'),
    });
    expect(summary({ ...v03, url: '/a2a', additionalInterfaces: undefined })).toEqual([
      'error interface-url $.url',
    ]);
    expect(
      summary({
        ...v03,
        additionalInterfaces: [
          ...(v03.additionalInterfaces as object[]),
          { url: 'x', transport: 'HTTP+JSON' },
        ],
      }),
    ).toEqual(['error interface-url $.additionalInterfaces[2].url']);
  });

  it('bindings: a custom one should be a URI, and near-misses of standard names are caught', () => {
    const card = {
      ...v1,
      supportedInterfaces: [iface('https://a.example/q', 'bullmq'), iface('https://a.example/r', 'jsonrpc')],
    };
    expect(checkCard(card).problems).toEqual([
      expect.objectContaining({
        severity: 'warning',
        rule: 'custom-binding',
        path: '$.supportedInterfaces[0].protocolBinding',
        hint: expect.stringContaining('URI you control'),
      }),
      expect.objectContaining({
        path: '$.supportedInterfaces[1].protocolBinding',
        hint: 'Binding names are exact: write "JSONRPC".',
      }),
    ]);
    expect(summary({ ...v03, preferredTransport: 'REST', additionalInterfaces: undefined })).toEqual([
      'warning custom-binding $.preferredTransport',
    ]);
  });

  it('interfaces: at least one, each listed once', () => {
    expect(summary({ ...v1, supportedInterfaces: [] })).toEqual(['error no-interface $.supportedInterfaces']);
    const twice = {
      ...v1,
      supportedInterfaces: [iface('https://a.example/rpc'), iface('https://a.example/rpc')],
    };
    expect(only(twice, 'duplicate-interface')).toEqual([
      expect.objectContaining({
        path: '$.supportedInterfaces[1]',
        message: '$.supportedInterfaces[1] repeats $.supportedInterfaces[0]',
      }),
    ]);
  });

  it('v0.3 additionalInterfaces should repeat the main url and transport', () => {
    const card = {
      ...v03,
      additionalInterfaces: [{ url: 'https://a.example/a2a/rest', transport: 'HTTP+JSON' }],
    };
    expect(only(card, 'main-url-not-listed')).toEqual([
      {
        severity: 'warning',
        rule: 'main-url-not-listed',
        path: '$.additionalInterfaces',
        message:
          '$.additionalInterfaces does not repeat the main interface (JSONRPC at "https://a.example/a2a/jsonrpc")',
        hint: expect.stringContaining('Add {"url": "https://a.example/a2a/jsonrpc", "transport": "JSONRPC"}'),
      },
    ]);
  });

  it('protocol versions: Major.Minor on v1.0 interfaces, 0.3.x on v0.3 cards', () => {
    const card = { ...v1, supportedInterfaces: [iface('https://a.example/rpc', 'JSONRPC', '1.0.0')] };
    expect(checkCard(card).problems).toEqual([
      {
        severity: 'error',
        rule: 'protocol-version',
        path: '$.supportedInterfaces[0].protocolVersion',
        message: '$.supportedInterfaces[0].protocolVersion must be Major.Minor, like "1.0"',
        hint: 'Write "1.0": peers compare the version exactly, and v1.0 leaves the patch number out.',
      },
    ]);
    expect(summary({ ...v03, protocolVersion: 'latest' })).toEqual([
      'error protocol-version $.protocolVersion',
    ]);
    expect(summary({ ...v03, protocolVersion: '1.0.0' })).toEqual([
      'error protocol-version $.protocolVersion',
    ]);
    expect(summary({ ...v03, protocolVersion: '9.9' })).toEqual(['error protocol-version $.protocolVersion']);
    expect(summary({ ...v03, protocolVersion: '0.2.5' })).toEqual([
      'warning protocol-version $.protocolVersion',
    ]);
    expect(
      summary({ ...v1, supportedInterfaces: [iface('https://a.example/rpc', 'JSONRPC', '2.0')] }),
    ).toEqual(['warning protocol-version $.supportedInterfaces[0].protocolVersion']);
    expect(summary({ ...v03, protocolVersion: '0.3' })).toEqual([]);
  });

  it("the agent's version should look like a version number", () => {
    expect(only({ ...v1, version: 'latest' }, 'agent-version')).toEqual([
      expect.objectContaining({
        severity: 'warning',
        path: '$.version',
        message: '$.version "latest" does not look like a version number',
      }),
    ]);
    for (const version of ['1', '1.2', 'v2.0.1', '1.0.0-beta.2+build.5'])
      expect(summary({ ...v1, version })).toEqual([]);
  });

  it('security requirements, card-wide and per skill, name declared schemes', () => {
    const card = {
      ...v1,
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
      securityRequirements: [{ schemes: { bearer: { list: [] }, oauth: { list: ['read'] } } }],
      skills: [
        {
          id: 'echo',
          name: 'E',
          description: 'e',
          tags: [],
          securityRequirements: [{ schemes: { key: { list: [] } } }],
        },
      ],
    };
    expect(only(card, 'unknown-security-scheme')).toEqual([
      {
        severity: 'error',
        rule: 'unknown-security-scheme',
        path: '$.securityRequirements[0].schemes.oauth',
        message:
          '$.securityRequirements[0].schemes.oauth names the security scheme "oauth", which securitySchemes does not declare',
        hint: 'Declare "oauth" in securitySchemes, or use one of "bearer".',
      },
      expect.objectContaining({ path: '$.skills[0].securityRequirements[0].schemes.key' }),
    ]);
    const old = {
      ...v03,
      security: [{ key: [] }],
      skills: [{ id: 's', name: 'S', description: 'd', tags: [], security: [{ oidc: [] }] }],
    };
    expect(summary(old)).toEqual([
      'error unknown-security-scheme $.security[0].key',
      'error unknown-security-scheme $.skills[0].security[0].oidc',
    ]);
  });

  it('an extended card without any security scheme is flagged, in both versions', () => {
    expect(
      only({ ...v1, capabilities: { extendedAgentCard: true } }, 'extended-card-without-security'),
    ).toEqual([
      expect.objectContaining({
        severity: 'warning',
        path: '$.capabilities.extendedAgentCard',
        hint: expect.stringContaining('declare the scheme'),
      }),
    ]);
    expect(summary({ ...v03, supportsAuthenticatedExtendedCard: true })).toEqual([
      'warning extended-card-without-security $.supportsAuthenticatedExtendedCard',
    ]);
    const secured = {
      ...v03,
      supportsAuthenticatedExtendedCard: true,
      securitySchemes: { m: { type: 'mutualTLS' } },
    };
    expect(summary(secured)).toEqual([]);
  });
});

describe('checkCard: anything at all', () => {
  it('reports non-objects, and cards of no known version, saying which fields identify each', () => {
    for (const input of [null, undefined, 42, 'card', true, [], [v1]]) {
      const result = checkCard(input);
      expect(result).toMatchObject({ version: 'unknown', valid: false });
      expect(result.problems.map((p) => `${p.rule} ${p.path}`)).toEqual(['not-an-object $']);
    }
    expect(checkCard([]).problems[0]?.hint).toMatch(/^It is an array\. An Agent Card is a JSON object/);
    const unknown = checkCard({ name: 'x' });
    expect(unknown.problems).toEqual([
      expect.objectContaining({
        rule: 'unknown-version',
        hint: expect.stringMatching(/supportedInterfaces.*protocolVersion and url/),
      }),
    ]);
  });

  it('never throws: deep nesting, cycles, odd values and throwing getters all become problems', () => {
    let deep: unknown = 'bottom';
    for (let level = 0; level < 100_000; level++) deep = [deep];
    expect(checkCard(deep).problems[0]?.rule).toBe('not-an-object');
    expect(
      checkCard({ ...v1, skills: deep, capabilities: { extensions: [{ uri: 'x', params: { deep } }] } })
        .valid,
    ).toBe(false);
    const cyclic: JsonObject = { ...v1 };
    cyclic.provider = cyclic;
    expect(checkCard(cyclic).problems.map((p) => p.path)).toContain('$.provider.organization');
    const hostile = new Proxy(v1, {
      get: () => {
        throw new Error('boom');
      },
    });
    expect(checkCard(hostile).problems).toEqual([
      expect.objectContaining({ rule: 'check-failed', path: '$', message: '$ could not be checked: boom' }),
    ]);
    const odd = {
      ...v03,
      url: { toString: 1 },
      skills: [null, 3, 'x'],
      securitySchemes: { a: [] },
      version: Symbol.iterator.toString(),
    };
    expect(() => checkCard(odd)).not.toThrow();
  });

  it('refuses a bad version option, saying what it accepts', () => {
    const call = () => checkCard(v1, { version: '2.0' as '1.0' });
    expect(call).toThrow(/version must be "1\.0" or "0\.3"/);
    expect(call).toThrow(CardsError);
    try {
      call();
    } catch (error) {
      expect(isCardsError(error, 'INVALID_OPTIONS')).toBe(true);
      expect(error).toMatchObject({ name: 'CardsError', code: 'INVALID_OPTIONS', party: 'caller' });
    }
  });
});
