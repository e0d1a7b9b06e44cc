import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { detectCardVersion, fromV03, type JsonObject, toV03 } from '../src/index.ts';
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
    expect(fromV03(nowhere).warnings).toContainEqual({
      path: '$.url',
      message: 'no url: the v1.0 card has no interface, so no client can reach the agent',
    });
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
