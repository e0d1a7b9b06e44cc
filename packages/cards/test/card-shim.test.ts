import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  CardsError,
  checkCard,
  detectCardVersion,
  fromV03,
  isCardsError,
  type JsonObject,
  toV03,
} from '../src/index.ts';
import { v1, v03 } from './support/worked-example.ts';

const realWorld = fileURLToPath(new URL('./fixtures/cards/real-world/', import.meta.url));

describe('card versions', () => {
  it('detects 1.0, 0.3, hybrid and unknown shapes', () => {
    expect(detectCardVersion(v1)).toBe('1.0');
    expect(detectCardVersion(v03)).toBe('0.3');
    expect(detectCardVersion({ ...v03, supportedInterfaces: v1.supportedInterfaces })).toBe('hybrid');
    expect(detectCardVersion({ name: 'x' })).toBe('unknown');
    expect(detectCardVersion('not a card')).toBe('unknown');
  });

  it('calls a card hybrid only when it is complete in both shapes; a stray field does not make one', () => {
    const { protocolVersion: _p, ...noVersion } = v03;
    expect(detectCardVersion({ ...noVersion, supportedInterfaces: v1.supportedInterfaces })).toBe('1.0');
    expect(detectCardVersion({ ...v1, protocolVersion: '0.3.0' })).toBe('1.0');
    expect(detectCardVersion({ ...v1, url: 'https://a.example/a2a/jsonrpc', protocolVersion: '1.0' })).toBe(
      '1.0',
    );
    expect(detectCardVersion({ ...v1, security: [] })).toBe('1.0');
    expect(detectCardVersion({ ...v03, securityRequirements: [] })).toBe('0.3');
    const { supportedInterfaces: _i, ...bare } = v1;
    expect(detectCardVersion({ ...bare, protocolVersion: '1.0' })).toBe('1.0');
    expect(detectCardVersion({ ...bare, protocolVersion: '0.3.0' })).toBe('0.3');
    expect(detectCardVersion({ ...bare, preferredTransport: 'JSONRPC' })).toBe('0.3');
  });
});

describe('fromV03 and toV03', () => {
  it('convert the worked example both ways without loss', () => {
    expect(fromV03(v03)).toEqual({ card: v1, warnings: [] });
    expect(toV03(v1)).toEqual({ card: v03, warnings: [] });
  });

  it('round-trip a v1.0 card whose interfaces a v0.3 peer can reach', () => {
    const { card: there } = toV03(v1);
    expect(fromV03(there).card).toEqual(v1);
  });

  it('keep only what a v0.3 peer can reach, and say what was left out and where', () => {
    const card: JsonObject = {
      ...v1,
      supportedInterfaces: [
        { url: 'https://a.example/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        {
          url: 'bullmq://queue/echo?prefix=x',
          protocolBinding: 'urn:switchboard:a2a:binding:bullmq:v1',
          protocolVersion: '1.0',
        },
        { url: 'https://a.example/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      ],
      capabilities: { streaming: true, extendedAgentCard: true },
      signatures: [{ protected: 'x', signature: 'y' }],
    };
    const { card: out, warnings } = toV03(card);
    expect(out).toMatchObject({
      url: 'https://a.example/a2a/jsonrpc',
      preferredTransport: 'JSONRPC',
      protocolVersion: '0.3.0',
      supportsAuthenticatedExtendedCard: true,
    });
    expect(out).not.toHaveProperty('additionalInterfaces');
    expect(out).not.toHaveProperty('signatures');
    expect(warnings).toEqual([
      {
        path: '$.supportedInterfaces[1]',
        message: 'the urn:switchboard:a2a:binding:bullmq:v1 binding does not exist in v0.3; left out',
      },
      {
        path: '$.signatures',
        message: 'signatures are bound to the v1.0 shape and would not verify; left out',
      },
    ]);
  });

  it('refuse a card with nothing a v0.3 peer can use, saying how to fix it', () => {
    const queueOnly = {
      ...v1,
      supportedInterfaces: [
        { url: 'bullmq://queue/echo?prefix=x', protocolBinding: 'urn:x', protocolVersion: '1.0' },
      ],
    };
    expect(() => toV03(queueOnly)).toThrow(
      /no interface a v0.3 client can use\. List its JSON-RPC or HTTP\+JSON interface with protocolVersion "0\.3"/,
    );
  });

  it('convert every kind of security scheme and requirement, both ways', () => {
    const schemesV03 = {
      bearer: { type: 'http', scheme: 'Bearer', bearerFormat: 'JWT' },
      key: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      oauth: {
        type: 'oauth2',
        flows: { clientCredentials: { tokenUrl: 'https://t', scopes: { read: 'r' } } },
      },
      oidc: {
        type: 'openIdConnect',
        openIdConnectUrl: 'https://accounts.example/.well-known/openid-configuration',
      },
      mtls: { type: 'mutualTLS' },
    };
    const schemesV1 = {
      bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } },
      key: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } },
      oauth: {
        oauth2SecurityScheme: {
          flows: { clientCredentials: { tokenUrl: 'https://t', scopes: { read: 'r' } } },
        },
      },
      oidc: {
        openIdConnectSecurityScheme: {
          openIdConnectUrl: 'https://accounts.example/.well-known/openid-configuration',
        },
      },
      mtls: { mtlsSecurityScheme: {} },
    };
    const security = [{ oauth: ['read'] }, { key: [], mtls: [] }];
    const securityRequirements = [
      { schemes: { oauth: { list: ['read'] } } },
      { schemes: { key: { list: [] }, mtls: { list: [] } } },
    ];
    const converted = fromV03({ ...v03, securitySchemes: schemesV03, security });
    expect(converted.warnings).toEqual([]);
    expect(converted.card.securitySchemes).toEqual(schemesV1);
    expect(converted.card.securityRequirements).toEqual(securityRequirements);
    const back = toV03(converted.card);
    expect(back.card.securitySchemes).toEqual(schemesV03);
    expect(back.card.security).toEqual(security);
  });

  it('report each lossy security step with its path', () => {
    const many = {
      ...v03,
      securitySchemes: {
        oauth: {
          type: 'oauth2',
          flows: {
            implicit: { authorizationUrl: 'https://a', scopes: {} },
            clientCredentials: { tokenUrl: 'https://t', scopes: {} },
          },
        },
      },
    };
    expect(fromV03(many).warnings).toEqual([
      {
        path: '$.securitySchemes.oauth.flows.implicit',
        message: 'v1.0 allows one OAuth flow; kept clientCredentials, left out implicit',
      },
    ]);
    const device = {
      ...v1,
      securitySchemes: {
        oauth: {
          oauth2SecurityScheme: {
            flows: { deviceCode: { deviceAuthorizationUrl: 'https://d', tokenUrl: 'https://t', scopes: {} } },
          },
        },
        key: { apiKeySecurityScheme: { location: 'body', name: 'k' } },
      },
    };
    expect(toV03(device).warnings).toEqual([
      {
        path: '$.securitySchemes.oauth.oauth2SecurityScheme.flows.deviceCode',
        message: 'the device code flow does not exist in v0.3; left out',
      },
      {
        path: '$.securitySchemes.key.apiKeySecurityScheme.location',
        message: 'location "body" has no v0.3 equivalent; written as in: "header"',
      },
    ]);
  });

  it('read a hybrid card by its supportedInterfaces, and say the v0.3 fields were ignored', () => {
    const hybrid = {
      ...v03,
      supportedInterfaces: [
        { url: 'https://b.example/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ],
    };
    const { card, warnings } = fromV03(hybrid);
    expect(card.supportedInterfaces).toEqual(hybrid.supportedInterfaces);
    expect(warnings.map((warning) => warning.path)).toEqual([
      '$.protocolVersion',
      '$.url',
      '$.preferredTransport',
      '$.additionalInterfaces',
    ]);
  });

  it('warn where a conversion loses an interface: a tenant, or a v0.3 card without url', () => {
    const tenanted = {
      ...v1,
      supportedInterfaces: [
        { url: 'https://a.example/t1/rpc', protocolBinding: 'JSONRPC', protocolVersion: '0.3', tenant: 't1' },
      ],
    };
    expect(toV03(tenanted).warnings).toEqual([
      {
        path: '$.supportedInterfaces[0].tenant',
        message: 'tenant "t1" cannot be expressed in v0.3; a v0.3 client will not send it',
      },
    ]);
    const { url: _url, additionalInterfaces: _more, ...nowhere } = v03;
    expect(() => fromV03(nowhere)).toThrow(
      /v1\.0 form of this card would not be valid: \$\.supportedInterfaces is empty/,
    );
  });

  it('keep v1.0-form security schemes and capabilities found in a hybrid card', () => {
    const hybrid = {
      ...v03,
      supportedInterfaces: v1.supportedInterfaces,
      capabilities: { streaming: true, extendedAgentCard: true },
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    };
    const { card } = fromV03(hybrid);
    expect(card.securitySchemes).toEqual({ bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } });
    expect(card.capabilities).toMatchObject({ extendedAgentCard: true });
    expect(detectCardVersion({ ...v1, url: undefined })).toBe('1.0');
  });

  it('convert every real-world card from public A2A samples to v1.0 and back', () => {
    const files = readdirSync(realWorld).filter((file) => file.endsWith('.json'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const card = JSON.parse(readFileSync(`${realWorld}${file}`, 'utf8')) as JsonObject;
      const { card: modern } = fromV03(card);
      expect(detectCardVersion(modern), file).toBe('1.0');
      if (typeof card.url === 'string') {
        expect(toV03(modern).card.url, file).toBe(card.url);
      }
    }
  });
});

describe('conversions lose nothing silently', () => {
  const google = {
    google: {
      openIdConnectSecurityScheme: {
        openIdConnectUrl: 'https://accounts.example/.well-known/openid-configuration',
      },
    },
  };

  it("read a v1.0 card's card-level security, written the v0.3 way, when converting to 0.3", () => {
    // As in the A2A v1.0.1 specification's sample card.
    const card = { ...v1, securitySchemes: google, security: [{ google: ['openid', 'profile'] }] };
    const { card: out, warnings } = toV03(card);
    expect(out.security).toEqual([{ google: ['openid', 'profile'] }]);
    expect(warnings).toEqual([]);
    expect(fromV03(card).card.securityRequirements).toEqual([
      { schemes: { google: { list: ['openid', 'profile'] } } },
    ]);
  });

  it('keep OAuth scopes in every requirement shape published cards use', () => {
    const shapes = [
      [{ schemes: { google: { list: ['openid', 'email'] } } }],
      [{ schemes: { google: ['openid', 'email'] } }], // a2a-go's fixture
      [{ google: ['openid', 'email'] }], // the v0.3 shape under the v1.0 name
    ];
    for (const securityRequirements of shapes) {
      const card = { ...v1, securitySchemes: google, securityRequirements };
      expect(toV03(card).card.security, JSON.stringify(securityRequirements)).toEqual([
        { google: ['openid', 'email'] },
      ]);
      expect(fromV03(card).card.securityRequirements).toEqual([
        { schemes: { google: { list: ['openid', 'email'] } } },
      ]);
    }
    const odd = { ...v1, securitySchemes: google, securityRequirements: [{ schemes: { google: 'openid' } }] };
    expect(toV03(odd).warnings).toContainEqual({
      path: '$.securityRequirements[0].schemes.google',
      message: 'the string "openid" is not a security requirement; left out',
    });
  });

  it('carry v0.3-shaped security schemes found in a v1.0 card, in both directions', () => {
    const card = {
      ...v1,
      securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } },
      securityRequirements: [{ schemes: { key: { list: [] } } }],
    };
    const there = toV03(card);
    expect(there.card.securitySchemes).toEqual({ key: { type: 'apiKey', in: 'header', name: 'X-Key' } });
    expect(there.warnings).toEqual([]);
    expect(fromV03(card).card.securitySchemes).toEqual({
      key: { apiKeySecurityScheme: { location: 'header', name: 'X-Key' } },
    });
  });

  it('give every v1.0 interface its protocolVersion, saying so', () => {
    const card = {
      ...v1,
      supportedInterfaces: [
        { url: 'https://a.example/a2a/jsonrpc', protocolBinding: 'JSONRPC' },
        { url: 'https://a.example/a2a/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '0.3.0' },
      ],
    };
    const { card: out, warnings } = fromV03(card);
    expect(out.supportedInterfaces).toEqual([
      { url: 'https://a.example/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: 'https://a.example/a2a/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
    ]);
    expect(warnings).toEqual([
      {
        path: '$.supportedInterfaces[0].protocolVersion',
        message: 'missing, and v1.0 requires it; written as "1.0"',
      },
      {
        path: '$.supportedInterfaces[1].protocolVersion',
        message: '"0.3.0" written as "0.3" (v1.0 states Major.Minor)',
      },
    ]);
    expect(checkCard(out).valid).toBe(true);
  });

  it('refuse a document that is not an A2A card, saying what it lacks', () => {
    const notACard = { name: 'Quiz', description: 'A quiz', capabilities: { skills: [] }, status: 'online' };
    for (const convert of [fromV03, toV03]) {
      expect(() => convert(notACard)).toThrow(CardsError);
      expect(() => convert(notACard)).toThrow(
        /not an A2A Agent Card \(it has name, description, capabilities, status\): it lacks supportedInterfaces \(v1\.0\) and url and protocolVersion \(v0\.3\)/,
      );
      try {
        convert(notACard);
      } catch (error) {
        expect(isCardsError(error, 'NOT_A_CARD')).toBe(true);
      }
    }
  });

  it('report each field v1.0 cannot hold at its path, and carry it into v0.3', () => {
    const card = {
      ...v03,
      'x-acme': { tier: 'gold' },
      authentication: { schemes: ['bearer'] },
      contact: { email: 'a@example.com' },
      provider: { organization: 'Acme', url: 'https://acme.example', name: 'Acme' },
      skills: [{ id: 'echo', name: 'Echo', description: 'Echo back', tags: ['echo'], 'x-cost': 1 }],
    };
    const { card: out, warnings } = fromV03(card);
    expect(warnings).toEqual([
      {
        path: '$["x-acme"]',
        message: 'not a field of A2A v1.0 (readers that validate strictly refuse it); left out',
      },
      {
        path: '$.authentication',
        message: 'not a field of A2A v1.0 (readers that validate strictly refuse it); left out',
      },
      {
        path: '$.contact',
        message: 'not a field of A2A v1.0 (readers that validate strictly refuse it); left out',
      },
      { path: '$.provider.name', message: 'not a field of a provider; left out' },
      { path: '$.skills[0]["x-cost"]', message: 'not a field of an A2A v1.0 skill; left out' },
    ]);
    expect(checkCard(out, { version: '1.0' }).valid).toBe(true);
    const back = toV03({ ...v1, 'x-acme': { tier: 'gold' }, contact: 'a@example.com' });
    expect(back.card).toMatchObject({ 'x-acme': { tier: 'gold' }, contact: 'a@example.com' });
    expect(back.warnings).toEqual([]);
  });

  it('refuse a conversion whose result would fail the checker, naming what is wrong', () => {
    const card = {
      ...v1,
      supportedInterfaces: [{ url: '/api/a2a', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
    };
    for (const convert of [fromV03, toV03]) {
      expect(() => convert(card)).toThrow(/would not be valid: .*must be an absolute http\(s\) URL/);
      try {
        convert(card);
      } catch (error) {
        expect(isCardsError(error, 'NOT_CONVERTIBLE')).toBe(true);
      }
    }
  });

  it('make a v0.3 card pass the v0.3 checker: protocolVersion and skill tags added, nothing else touched', () => {
    const { protocolVersion: _p, ...old } = v03;
    const card = { ...old, skills: [{ id: 'echo', name: 'Echo', description: 'Echo back' }], 'x-acme': 1 };
    const { card: out, warnings } = toV03(card);
    expect(out).toEqual({ ...card, protocolVersion: '0.3.0', skills: [{ ...card.skills[0], tags: [] }] });
    expect(warnings).toEqual([]);
  });
});
